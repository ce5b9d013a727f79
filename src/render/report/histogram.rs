//! How long games lasted: a histogram of finished games by final turn, as shares of the run's finished
//! games so that runs of different sizes compare; long ranges are grouped into at most [`MAX_BARS`] bins.
use super::svg::{chart, line, percent, rect, text};

const MAX_BARS: i64 = 30;
const WIDTH: f64 = 400.0;
const HEIGHT: f64 = 150.0;
const LEFT: f64 = 48.0;
const TOP: f64 = 22.0;
const BOTTOM: f64 = 28.0;

/// Bins of `lengths` (turn, games): `(first turn, last turn, games)`, consecutive and covering the range.
pub fn bins(lengths: &[(i64, u64)]) -> Vec<(i64, i64, u64)> {
    let (Some(lo), Some(hi)) = (
        lengths.iter().map(|l| l.0).min(),
        lengths.iter().map(|l| l.0).max(),
    ) else {
        return Vec::new();
    };
    // In 128 bits: lengths come from files and may be anything.
    let (lo, hi) = (i128::from(lo), i128::from(hi));
    let bars = i128::from(MAX_BARS);
    let span = hi - lo + 1;
    let width = (span + bars - 1) / bars;
    let count = (span + width - 1) / width;
    let clamp = |v: i128| v.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64;
    let mut out: Vec<(i64, i64, u64)> = (0..count)
        .map(|k| {
            (
                clamp(lo + k * width),
                clamp((lo + (k + 1) * width - 1).min(hi)),
                0,
            )
        })
        .collect();
    for &(t, n) in lengths {
        let k = ((i128::from(t) - lo) / width) as usize;
        if let Some(b) = out.get_mut(k) {
            b.2 = b.2.saturating_add(n);
        }
    }
    out
}

/// A histogram titled `title` of `lengths`.
pub fn histogram(title: &str, lengths: &[(i64, u64)]) -> String {
    let b = bins(lengths);
    let total = b.iter().fold(0u64, |a, x| a.saturating_add(x.2));
    let top_share = b
        .iter()
        .map(|x| x.2 as f64 / total.max(1) as f64)
        .fold(0.0, f64::max)
        .max(0.01);
    let plot_w = WIDTH - LEFT - 10.0;
    let plot_h = HEIGHT - TOP - BOTTOM;
    let base = TOP + plot_h;
    let mut body = text(LEFT, 14.0, "start", "subtitle", title);
    body.push_str(&line(LEFT, base, LEFT + plot_w, base, "axis"));
    body.push_str(&text(
        LEFT - 4.0,
        TOP + 4.0,
        "end",
        "tick",
        &format!("{:.0}%", 100.0 * top_share),
    ));
    body.push_str(&text(LEFT - 4.0, base, "end", "tick", "0%"));
    let slot = plot_w / b.len().max(1) as f64;
    // A few lengths should not make a wall: bars at most this wide, centred in their slot.
    let bar = (slot - 2.0).min(36.0);
    let label_every = (b.len() as f64 / 8.0).ceil().max(1.0) as usize;
    for (i, &(from, to, n)) in b.iter().enumerate() {
        let share = n as f64 / total.max(1) as f64;
        let h = plot_h * share / top_share;
        let x = LEFT + i as f64 * slot;
        let turns = if from == to {
            format!("turn {from}")
        } else {
            format!("turns {from}-{to}")
        };
        body.push_str(&rect(
            x + (slot - bar) / 2.0,
            base - h,
            bar,
            h,
            "hbar",
            None,
            &format!("{turns}: {n} games ({})", percent(share)),
        ));
        if i % label_every == 0 || i + 1 == b.len() {
            body.push_str(&text(
                x + slot / 2.0,
                base + 13.0,
                "middle",
                "tick",
                &from.to_string(),
            ));
        }
    }
    body.push_str(&text(
        LEFT + plot_w / 2.0,
        base + 25.0,
        "middle",
        "tick",
        &format!("final turn ({total} finished games)"),
    ));
    chart(title, WIDTH, HEIGHT, &body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bins_cover_the_range() {
        assert_eq!(
            bins(&[(3, 1), (5, 2)]),
            vec![(3, 3, 1), (4, 4, 0), (5, 5, 2)]
        );
        let wide: Vec<(i64, u64)> = (0..100).map(|t| (t, 1)).collect();
        let b = bins(&wide);
        assert!(b.len() <= 30);
        assert_eq!(b.iter().map(|x| x.2).sum::<u64>(), 100);
        assert_eq!(b.first().map(|x| x.0), Some(0));
        assert_eq!(b.last().map(|x| x.1), Some(99));
        assert!(bins(&[]).is_empty());
        let extreme = bins(&[(i64::MIN, 1), (i64::MAX, 2)]);
        assert_eq!(extreme.iter().map(|x| x.2).sum::<u64>(), 3);
    }
}
