//! Summary statistics for simulation results: confidence intervals for win rates.

/// z for a two-sided 95% interval.
pub const Z_95: f64 = 1.959_963_984_540_054;

/// Wilson score interval for a proportion of `successes` out of `n` trials at normal quantile
/// `z`. Unlike the normal approximation it stays within [0, 1] and behaves at 0 and `n`
/// successes, which is where lopsided matchups land. `n == 0` gives the uninformative `(0, 1)`;
/// `successes` above `n` counts as `n`.
pub fn wilson(successes: u64, n: u64, z: f64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let s = successes.min(n);
    let n_f = n as f64;
    let p = s as f64 / n_f;
    let z2 = z * z;
    let denom = 1.0 + z2 / n_f;
    let center = (p + z2 / (2.0 * n_f)) / denom;
    let half = z * (p * (1.0 - p) / n_f + z2 / (4.0 * n_f * n_f)).sqrt() / denom;
    // The bounds are exactly 0 and 1 at the extremes; rounding would leave 1e-17 and 0.99..9.
    let lo = if s == 0 {
        0.0
    } else {
        (center - half).max(0.0)
    };
    let hi = if s == n {
        1.0
    } else {
        (center + half).min(1.0)
    };
    (lo, hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: (f64, f64), b: (f64, f64)) -> bool {
        (a.0 - b.0).abs() < 1e-12 && (a.1 - b.1).abs() < 1e-12
    }

    #[test]
    fn known_values() {
        // Reference values computed from the closed form.
        assert!(close(
            wilson(81, 263, Z_95),
            (0.255_288_519_878_274_2, 0.366_209_576_982_800_04)
        ));
        assert!(close(
            wilson(5, 10, Z_95),
            (0.236_593_090_512_564, 0.763_406_909_487_436_1)
        ));
        assert!(close(
            wilson(500, 1000, Z_95),
            (0.469_069_600_368_104_2, 0.530_930_399_631_895_8)
        ));
    }

    #[test]
    fn extremes() {
        assert_eq!(wilson(0, 0, Z_95), (0.0, 1.0));
        assert!(close(wilson(0, 10, Z_95), (0.0, 0.277_532_799_862_889_2)));
        assert!(close(wilson(10, 10, Z_95), (0.722_467_200_137_110_7, 1.0)));
        assert_eq!(wilson(10, 10, Z_95).1, 1.0);
        assert_eq!(wilson(12, 10, Z_95), wilson(10, 10, Z_95));
    }

    #[test]
    fn narrows_with_more_games_and_wider_z() {
        let (a, b) = wilson(50, 100, Z_95);
        let (c, d) = wilson(500, 1000, Z_95);
        assert!(d - c < b - a);
        let (e, f) = wilson(50, 100, 2.575_829_303_548_901);
        assert!(f - e > b - a);
    }
}
