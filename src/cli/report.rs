//! `arbiter report DIR|FILE... [-o report.html]` (stub).
use super::args::ReportArgs;
pub fn report(_a: &ReportArgs) -> i32 {
    2
}
