//! Stable sorting that costs the browser bundle one copy of the sort algorithm.
//!
//! The standard library's sort is generic over the element and the comparison, so every
//! `sort_by` call site compiles its own copy of the whole algorithm (driftsort, quicksort,
//! small-sort networks: a few kilobytes each). In the calculator's WebAssembly bundle those
//! copies came to about 100 KB of code. On `wasm32` these functions sort a list of indices
//! through one comparison behind `dyn`, compiled once, and then move the elements into
//! place; elsewhere (the CLI, the agent) they are the standard library's sort, which is
//! faster for large lists. Both are stable: equal elements keep their order.

use std::cmp::Ordering;

/// Sorts `items` stably by `compare`, as [`slice::sort_by`] does.
pub fn sort_by<T>(items: &mut [T], mut compare: impl FnMut(&T, &T) -> Ordering) {
    if cfg!(target_arch = "wasm32") {
        sort_through_indices(items, &mut compare);
    } else {
        items.sort_by(compare);
    }
}

/// Sorts `items` stably by the key `key` gives each, as [`slice::sort_by_key`] does.
pub fn sort_by_key<T, K: Ord>(items: &mut [T], mut key: impl FnMut(&T) -> K) {
    sort_by(items, |a, b| key(a).cmp(&key(b)));
}

/// Sorts `items` stably in their natural order, as [`slice::sort`] does.
pub fn sort<T: Ord>(items: &mut [T]) {
    sort_by(items, T::cmp);
}

/// The bundle's one sort: orders indices by `compare`, then moves each element to its place.
fn sort_through_indices<T>(items: &mut [T], compare: &mut impl FnMut(&T, &T) -> Ordering) {
    let mut order = sorted_indices(items.len(), &mut |a, b| compare(&items[a], &items[b]));
    permute(items, &mut order);
}

/// `0..len` sorted stably by `compare` over positions: the one monomorphic sort.
fn sorted_indices(len: usize, compare: &mut dyn FnMut(usize, usize) -> Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = (0..len).collect();
    order.sort_by(|&a, &b| compare(a, b));
    order
}

/// Rearranges `items` so that position `i` holds what was at `order[i]`, following each
/// cycle of the permutation with swaps (`order` is left as the identity).
fn permute<T>(items: &mut [T], order: &mut [usize]) {
    for start in 0..order.len() {
        let mut i = start;
        while order[i] != start {
            let next = order[i];
            items.swap(i, next);
            order[i] = i;
            i = next;
        }
        order[i] = i;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The index sort (the bundle's path, whatever this target is) gives exactly the
        /// standard library's stable sort, ties in their original order included.
        #[test]
        fn index_sort_equals_the_standard_stable_sort(
            pairs in proptest::collection::vec((0u8..6, any::<u16>()), 0..200),
        ) {
            let mut ours = pairs.clone();
            sort_through_indices(&mut ours, &mut |a: &(u8, u16), b: &(u8, u16)| a.0.cmp(&b.0));
            let mut std_sorted = pairs.clone();
            std_sorted.sort_by_key(|p| p.0);
            prop_assert_eq!(ours, std_sorted);
        }
    }

    #[test]
    fn keys_and_natural_order_sort_as_the_standard_library_does() {
        let mut words = vec!["pear", "fig", "apple", "kiwi", "date"];
        sort_by_key(&mut words, |w| w.len());
        assert_eq!(words, ["fig", "pear", "kiwi", "date", "apple"]);
        sort(&mut words);
        assert_eq!(words, ["apple", "date", "fig", "kiwi", "pear"]);
    }
}
