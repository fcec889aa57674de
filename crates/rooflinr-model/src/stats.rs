//! The workspace's order statistics, each convention named once: the median, quantiles
//! linear between the closest ranks, and nearest-rank quantiles. Each returns `None` for
//! no values; callers say what an empty set shows.

/// The median of the finite values of `values`: the middle one, or the mean of the middle
/// two for an even count; `None` where none is finite.
pub fn median(mut values: Vec<f64>) -> Option<f64> {
    values.retain(|x| x.is_finite());
    crate::sort::sort_by(&mut values, f64::total_cmp);
    quantile(&values, 0.5)
}

/// The `q`-quantile (0..=1) of `sorted` (ascending), linear between the closest ranks:
/// numpy's default `percentile`, Hyndman and Fan's type 7 ("Sample Quantiles in
/// Statistical Packages", The American Statistician 50(4), 1996). Its 0.5 is
/// [`median`]'s. `None` for no values.
pub fn quantile(sorted: &[f64], q: f64) -> Option<f64> {
    let last = sorted.len().checked_sub(1)?;
    let x = q.clamp(0.0, 1.0) * last as f64;
    let (lo, hi) = (x.floor() as usize, x.ceil() as usize);
    Some(sorted[lo] + (sorted[hi] - sorted[lo]) * (x - lo as f64))
}

/// The `q`-quantile (0..=1) of `sorted` (ascending) as one of its values: the one at rank
/// `round((n - 1) q)`, the upper middle one for the median of an even count. `rooflinr
/// validate`'s kernel and collective errors are quoted so. `None` for no values.
pub fn nearest_rank(sorted: &[f64], q: f64) -> Option<f64> {
    let last = sorted.len().checked_sub(1)?;
    Some(sorted[(last as f64 * q.clamp(0.0, 1.0)).round() as usize])
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn the_conventions_on_small_sets() {
        assert_eq!(median(vec![3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(vec![4.0, 1.0, 3.0, 2.0]), Some(2.5));
        assert_eq!(median(vec![f64::NAN, 1.0, f64::INFINITY]), Some(1.0));
        assert_eq!(median(vec![f64::NAN]), None);
        assert_eq!(quantile(&[1.0, 2.0, 3.0, 4.0, 5.0], 0.9), Some(4.6));
        assert_eq!(nearest_rank(&[1.0, 2.0, 3.0, 4.0], 0.5), Some(3.0));
        assert_eq!(nearest_rank(&[1.0, 2.0, 3.0, 4.0, 5.0], 0.9), Some(5.0));
        assert_eq!(quantile(&[], 0.5), None);
        assert_eq!(nearest_rank(&[], 0.5), None);
    }

    proptest! {
        /// Every quantile lies between the least and the greatest value, and grows with q.
        #[test]
        fn quantiles_lie_within_the_values_in_order(
            mut v in prop::collection::vec(-1e9f64..1e9, 1..64),
            a in 0.0f64..=1.0,
            b in 0.0f64..=1.0,
        ) {
            v.sort_by(f64::total_cmp);
            let (lo, hi) = (a.min(b), a.max(b));
            for f in [quantile, nearest_rank] {
                let (x, y) = (f(&v, lo).unwrap(), f(&v, hi).unwrap());
                prop_assert!(v[0] <= x && x <= y && y <= v[v.len() - 1]);
            }
            prop_assert_eq!(median(v.clone()), quantile(&v, 0.5));
        }
    }
}
