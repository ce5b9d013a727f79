//! Ratings from a round robin: a maximum-likelihood Bradley-Terry fit of all results at once (draws count
//! as half a win to each side), on the Elo scale, with 95% intervals from the Fisher information.
//!
//! Bradley-Terry: player i beats j with probability `g_i / (g_i + g_j)`. The fit is Hunter's (2004) MM
//! iteration, which climbs the likelihood monotonically to its maximum; it uses every game at once, so
//! unlike sequential Elo updates it does not depend on the order games were played. One virtual draw is
//! added to every pair that met (BayesElo's habit), so that an agent that won every game still gets a
//! finite rating; against 100 or more games per pair it moves ratings by a few points at most.
//!
//! Ratings are `400 log10(g)` shifted so their mean is 1500. The interval of each rating is
//! `rating +- 1.96 se`, `se` from the inverse of the Fisher information of the log-strengths (its
//! pseudo-inverse, as the ratings are only defined up to a common shift; the shift is fixed by the mean),
//! so it says how well a rating is known relative to the field's average.
use super::stats::Z_95;

/// Mean rating of the field.
pub const MEAN_RATING: f64 = 1500.0;
/// Elo points per natural-log unit of strength: 400 / ln 10.
const ELO_PER_NAT: f64 = 173.717_792_761_245_1;
/// Iteration limits of the fit.
const MAX_ITERATIONS: usize = 100_000;
const TOLERANCE: f64 = 1e-12;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    pub rating: f64,
    pub low: f64,
    pub high: f64,
}

/// Fits ratings to `games[i][j]` games between i and j in which i scored `score[i][j]` (wins plus half the
/// draws; `score[i][j] + score[j][i] == games[i][j]`). When some agents never met (every game of a pair
/// failed), the ratings are not comparable across the gap and the bounds are NaN (null in JSON).
pub fn bradley_terry(games: &[Vec<f64>], score: &[Vec<f64>]) -> Vec<Rating> {
    let n = games.len();
    if n == 0 {
        return Vec::new();
    }
    // The counts with one virtual draw per pair that met.
    let mut g = vec![vec![0.0; n]; n];
    let mut w = vec![0.0; n];
    for i in 0..n {
        for j in 0..n {
            if i != j && games[i][j] > 0.0 {
                g[i][j] = games[i][j] + 1.0;
                w[i] += score[i][j] + 0.5;
            }
        }
    }
    let mut gamma = vec![1.0; n];
    for _ in 0..MAX_ITERATIONS {
        let mut next = vec![0.0; n];
        for i in 0..n {
            let denom: f64 = (0..n)
                .filter(|&j| j != i && g[i][j] > 0.0)
                .map(|j| g[i][j] / (gamma[i] + gamma[j]))
                .sum();
            next[i] = if denom > 0.0 { w[i] / denom } else { 1.0 };
        }
        // Fix the scale: geometric mean 1.
        let mean_log = next.iter().map(|x: &f64| x.ln()).sum::<f64>() / n as f64;
        let mut change: f64 = 0.0;
        for i in 0..n {
            let v = (next[i].ln() - mean_log).exp();
            change = change.max((v.ln() - gamma[i].ln()).abs());
            gamma[i] = v;
        }
        if change < TOLERANCE {
            break;
        }
    }
    let r: Vec<f64> = gamma.iter().map(|x| x.ln()).collect();
    // Fisher information of the log-strengths.
    let mut info = vec![vec![0.0; n]; n];
    for i in 0..n {
        for j in 0..n {
            if i != j && g[i][j] > 0.0 {
                let p = 1.0 / (1.0 + (r[j] - r[i]).exp());
                let v = g[i][j] * p * (1.0 - p);
                info[i][i] += v;
                info[i][j] -= v;
            }
        }
    }
    let cov = pseudo_inverse(&info);
    (0..n)
        .map(|i| {
            let rating = MEAN_RATING + ELO_PER_NAT * r[i];
            let se = cov
                .as_ref()
                .map_or(f64::NAN, |c| ELO_PER_NAT * c[i][i].max(0.0).sqrt());
            let half = Z_95 * se;
            Rating {
                rating,
                low: rating - half,
                high: rating + half,
            }
        })
        .collect()
}

/// The pseudo-inverse of a Fisher information whose null space is the all-ones vector (a connected
/// comparison graph): `(I + J/n)^-1 - J/n`. `None` when that matrix is singular (agents that never met).
fn pseudo_inverse(info: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = info.len();
    let j = 1.0 / n as f64;
    let mut a: Vec<Vec<f64>> = info
        .iter()
        .map(|row| row.iter().map(|x| x + j).collect())
        .collect();
    let mut inv = invert(&mut a)?;
    for row in inv.iter_mut() {
        for x in row.iter_mut() {
            *x -= j;
        }
    }
    Some(inv)
}

/// Gauss-Jordan inversion with partial pivoting; `None` for a singular matrix.
fn invert(a: &mut [Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = a.len();
    let mut inv: Vec<Vec<f64>> = (0..n)
        .map(|i| (0..n).map(|k| if i == k { 1.0 } else { 0.0 }).collect())
        .collect();
    for col in 0..n {
        let pivot = (col..n).max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))?;
        if a[pivot][col].abs() < 1e-12 {
            return None;
        }
        a.swap(col, pivot);
        inv.swap(col, pivot);
        let d = a[col][col];
        for k in 0..n {
            a[col][k] /= d;
            inv[col][k] /= d;
        }
        for row in 0..n {
            if row != col {
                let f = a[row][col];
                if f != 0.0 {
                    for k in 0..n {
                        a[row][k] -= f * a[col][k];
                        inv[row][k] -= f * inv[col][k];
                    }
                }
            }
        }
    }
    Some(inv)
}

/// Wilson score interval of a score of `points` (wins plus half the draws) in `n` games.
pub fn score_interval(points: f64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let nf = n as f64;
    let p = (points / nf).clamp(0.0, 1.0);
    let z2 = Z_95 * Z_95;
    let denom = 1.0 + z2 / nf;
    let center = (p + z2 / (2.0 * nf)) / denom;
    let half = Z_95 * (p * (1.0 - p) / nf + z2 / (4.0 * nf * nf)).sqrt() / denom;
    ((center - half).max(0.0), (center + half).min(1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(n: usize, results: &[(usize, usize, f64, f64)]) -> (Vec<Vec<f64>>, Vec<Vec<f64>>) {
        let mut g = vec![vec![0.0; n]; n];
        let mut s = vec![vec![0.0; n]; n];
        for &(i, j, games, points) in results {
            g[i][j] += games;
            g[j][i] += games;
            s[i][j] += points;
            s[j][i] += games - points;
        }
        (g, s)
    }

    #[test]
    fn equal_results_give_equal_ratings() {
        let (g, s) = table(
            3,
            &[
                (0, 1, 100.0, 50.0),
                (1, 2, 100.0, 50.0),
                (0, 2, 100.0, 50.0),
            ],
        );
        let r = bradley_terry(&g, &s);
        for x in &r {
            assert!((x.rating - MEAN_RATING).abs() < 1e-6, "{r:?}");
            assert!(x.low < x.rating && x.rating < x.high);
        }
    }

    #[test]
    fn a_76_percent_score_is_about_200_points() {
        // Two agents: the MLE is the logit of the (regularised) score, 400 log10(p / (1 - p)).
        let (g, s) = table(2, &[(0, 1, 1000.0, 760.0)]);
        let r = bradley_terry(&g, &s);
        let p: f64 = (760.0 + 0.5) / 1001.0;
        let want: f64 = 400.0 * (p / (1.0 - p)).log10();
        assert!(((r[0].rating - r[1].rating) - want).abs() < 1e-6, "{r:?}");
        assert!((r[0].rating + r[1].rating - 2.0 * MEAN_RATING).abs() < 1e-6);
        // The standard error of a logit from 1001 games: 1 / sqrt(n p (1 - p)), split over two agents.
        let se = ELO_PER_NAT / (1001.0 * p * (1.0 - p)).sqrt() / 2.0;
        assert!(
            ((r[0].high - r[0].rating) - Z_95 * se).abs() < 1e-6,
            "{r:?}"
        );
    }

    #[test]
    fn the_fit_does_not_depend_on_order_and_handles_perfect_scores() {
        let a = table(
            3,
            &[(0, 1, 20.0, 20.0), (1, 2, 20.0, 15.0), (0, 2, 20.0, 19.0)],
        );
        let b = table(
            3,
            &[(0, 2, 20.0, 19.0), (1, 2, 20.0, 15.0), (0, 1, 20.0, 20.0)],
        );
        let (ra, rb) = (bradley_terry(&a.0, &a.1), bradley_terry(&b.0, &b.1));
        assert_eq!(ra, rb);
        assert!(
            ra[0].rating.is_finite() && ra[0].rating > ra[1].rating && ra[1].rating > ra[2].rating
        );
    }

    #[test]
    fn score_intervals() {
        let (lo, hi) = score_interval(50.0, 100);
        assert!(lo < 0.5 && hi > 0.5);
        let (lo, _) = score_interval(75.0, 100);
        assert!(lo > 0.5);
        assert_eq!(score_interval(0.0, 0), (0.0, 1.0));
    }
}
