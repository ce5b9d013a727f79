//! `http://` agents: each protocol message is the body of one POST to the agent's URL, and the response
//! body is the reply (ignored for `start` and `end`). A blocking client (ureq) with a deadline for the
//! whole request, a limit on the response size, no proxy from the environment and no redirects. This
//! build speaks plain HTTP; `https://` needs the `tls` feature.
use std::time::Duration;

use serde_json::Value as Json;

use super::protocol::{self, Parsed, Reply, MAX_REPLY_BYTES};
use super::{Fault, FaultKind, Transport};

/// How long `start` and `end` may take (their answers are not used).
const NOTICE_TIMEOUT: Duration = Duration::from_secs(2);

/// Checks an agent URL; the error is a one-line usage message.
pub fn check_url(url: &str) -> Result<(), String> {
    let lower = url.to_ascii_lowercase();
    let rest = lower
        .strip_prefix("http://")
        .or_else(|| lower.strip_prefix("https://"))
        .unwrap_or("");
    let host = rest.split(['/', '?', '#']).next().unwrap_or("");
    if host.is_empty() || host.contains(char::is_whitespace) {
        return Err(format!(
            "agent `{url}`: not a URL with a host, e.g. `http://127.0.0.1:8000/act`"
        ));
    }
    if lower.starts_with("https://") && !cfg!(feature = "tls") {
        return Err(format!(
            "agent `{url}`: this build speaks plain HTTP only; build with `--features tls` for https"
        ));
    }
    Ok(())
}

/// An agent behind a URL.
pub struct Http {
    url: String,
    client: ureq::Agent,
}

impl Http {
    pub fn new(url: &str) -> Self {
        let config = ureq::Agent::config_builder()
            .proxy(None)
            .max_redirects(0)
            .http_status_as_error(true)
            .build();
        Http {
            url: url.to_string(),
            client: ureq::Agent::new_with_config(config),
        }
    }

    /// POSTs `msg` and reads the response body (at most [`MAX_REPLY_BYTES`]) within `timeout`.
    fn post(&self, msg: &Json, timeout: Duration) -> Result<String, Fault> {
        let body = serde_json::to_string(msg).unwrap_or_default();
        let mut response = self
            .client
            .post(&self.url)
            .config()
            .timeout_global(Some(timeout))
            .build()
            .header("Content-Type", "application/json")
            .send(body)
            .map_err(|e| fault(e, timeout))?;
        response
            .body_mut()
            .with_config()
            .limit(MAX_REPLY_BYTES as u64)
            .read_to_string()
            .map_err(|e| fault(e, timeout))
    }
}

/// The fault an HTTP error is.
fn fault(e: ureq::Error, timeout: Duration) -> Fault {
    match e {
        ureq::Error::Timeout(_) => Fault::new(
            FaultKind::Timeout,
            format!("no reply within {} ms", timeout.as_millis()),
        ),
        ureq::Error::BodyExceedsLimit(_) => Fault::new(
            FaultKind::Malformed,
            format!("a reply longer than {MAX_REPLY_BYTES} bytes"),
        ),
        ureq::Error::StatusCode(code) => Fault::new(FaultKind::Http, format!("HTTP status {code}")),
        other => Fault::new(FaultKind::Http, other.to_string()),
    }
}

impl Transport for Http {
    fn start(&mut self, msg: &Json) {
        // A failing agent fails its first `act` as well, where it counts.
        let _ = self.post(msg, NOTICE_TIMEOUT);
    }

    fn ask(&mut self, msg: &Json, deadline: Duration) -> Result<Reply, Fault> {
        let text = self.post(msg, deadline)?;
        match protocol::parse(&text) {
            Parsed::Reply(r) => Ok(r),
            Parsed::Greeting => Err(Fault::new(
                FaultKind::Malformed,
                "no `actions` in the reply (an empty body or `ready`)",
            )),
            Parsed::Malformed(why) => Err(Fault::new(FaultKind::Malformed, why)),
        }
    }

    fn end(&mut self, msg: &Json) {
        let _ = self.post(msg, NOTICE_TIMEOUT);
    }
}
