//! Little-endian bit streams: how packed codes of any width sit in bytes.
//!
//! Codes are written least significant bit first, each code taking `width` bits, so two
//! 4-bit codes share a byte with the first in the low nibble (the layout of PyTorch's
//! `float4_e2m1fn_x2` and of CUTLASS's packed FP4), and four 6-bit codes fill three bytes.

/// Appends codes of a fixed width to a byte vector.
pub(crate) struct BitWriter {
    bytes: Vec<u8>,
    pending: u64,
    pending_bits: u32,
}

impl BitWriter {
    pub(crate) fn with_capacity(bytes: usize) -> Self {
        BitWriter {
            bytes: Vec::with_capacity(bytes),
            pending: 0,
            pending_bits: 0,
        }
    }

    /// Appends the low `width` bits of `code` (width at most 32).
    #[inline]
    pub(crate) fn push(&mut self, code: u32, width: u32) {
        self.pending |= u64::from(code & mask(width)) << self.pending_bits;
        self.pending_bits += width;
        while self.pending_bits >= 8 {
            self.bytes.push(self.pending as u8);
            self.pending >>= 8;
            self.pending_bits -= 8;
        }
    }

    /// The bytes, the last one zero-padded.
    pub(crate) fn finish(mut self) -> Vec<u8> {
        if self.pending_bits > 0 {
            self.bytes.push(self.pending as u8);
        }
        self.bytes
    }
}

fn mask(width: u32) -> u32 {
    if width >= 32 {
        u32::MAX
    } else {
        (1 << width) - 1
    }
}

/// The `index`-th code of `width` bits in `bytes`, or `None` past the end.
pub(crate) fn read(bytes: &[u8], index: usize, width: u32) -> Option<u32> {
    let first_bit = index * width as usize;
    let mut value = 0u64;
    let first_byte = first_bit / 8;
    let last_byte = (first_bit + width as usize).div_ceil(8);
    for (i, byte) in bytes.get(first_byte..last_byte)?.iter().enumerate() {
        value |= u64::from(*byte) << (8 * i);
    }
    Some((value >> (first_bit % 8)) as u32 & mask(width))
}

/// Bytes that `count` codes of `width` bits take.
pub(crate) fn packed_len(count: usize, width: u32) -> usize {
    (count * width as usize).div_ceil(8)
}
