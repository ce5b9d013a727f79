//! The HTTP API of INTERFACE.md section 11 on axum: routes, bodies read within the size limit, seat
//! tokens checked, long-polling. Everything that plays goes to the match's worker; what only reads takes
//! the match's lock for a moment.
use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::{get, post};
use axum::{Json, Router};
use indexmap::IndexMap;
use serde::Deserialize;
use serde_json::{json, Map, Value};
use tokio::sync::oneshot;

use super::error::ApiError;
use super::registry::{hides_anything, MatchEntry, Registry, Seat};
use super::worker::{CreateRequest, Job};
use crate::agents::MAX_SUBMISSION;
use crate::model::PlayerIdx;

/// The longest `wait_ms` of a long poll.
pub const MAX_WAIT_MS: u64 = 30_000;
/// The most `set` overrides one match may have.
const MAX_OVERRIDES: usize = 100;

type Reg = State<Arc<Registry>>;
type Answer = Result<Json<Value>, ApiError>;

/// Every route, with the body limit.
pub fn router(registry: Arc<Registry>) -> Router {
    let limit = registry.limits.max_body;
    Router::new()
        .route("/rulesets", get(rulesets))
        .route("/matches", post(create))
        .route("/matches/{id}", get(status))
        .route("/matches/{id}/state", get(state))
        .route("/matches/{id}/legal", get(legal))
        .route("/matches/{id}/submissions", post(submit))
        .route("/matches/{id}/events", get(events))
        .route("/matches/{id}/replay", get(replay))
        .fallback(|| async { ApiError::not_found("no such endpoint (docs/agents.md lists them)") })
        .layer(DefaultBodyLimit::max(limit))
        .with_state(registry)
}

/// The body as JSON: 413 over the limit, 400 when it is not JSON.
fn body_json(reg: &Registry, body: Result<Bytes, BytesRejection>) -> Result<Value, ApiError> {
    let bytes = match body {
        Ok(b) => b,
        Err(r) if r.status() == StatusCode::PAYLOAD_TOO_LARGE => {
            return Err(ApiError::too_large(reg.limits.max_body))
        }
        Err(r) => return Err(ApiError::bad_body(r.body_text())),
    };
    serde_json::from_slice(&bytes)
        .map_err(|e| ApiError::bad_body(format!("the body is not JSON: {e}")))
}

/// The token of `Authorization: Bearer TOKEN`, if the header is there; 401 when it is malformed.
fn bearer(headers: &HeaderMap) -> Result<Option<&str>, ApiError> {
    let Some(h) = headers.get(axum::http::header::AUTHORIZATION) else {
        return Ok(None);
    };
    let text = h.to_str().map_err(|_| ApiError::token_missing())?;
    match text.split_once(' ') {
        Some((scheme, token))
            if scheme.eq_ignore_ascii_case("bearer") && !token.trim().is_empty() =>
        {
            Ok(Some(token.trim()))
        }
        _ => Err(ApiError::token_missing()),
    }
}

/// The seat the request's token is: 401 without one, 403 when it is none of this match's seats.
fn seat(entry: &MatchEntry, headers: &HeaderMap) -> Result<PlayerIdx, ApiError> {
    let token = bearer(headers)?.ok_or_else(ApiError::token_missing)?;
    entry.seat_of(token).ok_or_else(ApiError::forbidden)
}

/// Sends `job` to the match's worker and waits for its answer.
async fn ask<T>(
    reg: &Registry,
    worker: usize,
    job: impl FnOnce(oneshot::Sender<Result<T, ApiError>>) -> Job,
) -> Result<T, ApiError> {
    let (tx, rx) = oneshot::channel();
    reg.send(worker, job(tx))?;
    rx.await
        .map_err(|_| ApiError::internal("the server's worker stopped"))?
}

async fn rulesets(State(reg): Reg) -> Json<Value> {
    Json(Value::Array(
        reg.catalogue.iter().map(|r| r.to_json()).collect(),
    ))
}

/// What `POST /matches` takes.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewMatch {
    ruleset: String,
    scenario: Option<String>,
    seed: Option<u64>,
    set: Option<Map<String, Value>>,
    seats: IndexMap<String, String>,
}

async fn create(
    State(reg): Reg,
    body: Result<Bytes, BytesRejection>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let v = body_json(&reg, body)?;
    let req: NewMatch = serde_json::from_value(v).map_err(|e| {
        ApiError::bad_body(format!(
            "{e}; a match is {{\"ruleset\", \"scenario\"?, \"seed\"?, \"set\"?, \"seats\": {{PLAYER: \"remote\" | AGENT}}}}"
        ))
    })?;
    let Some(ruleset) = reg.catalogue.iter().find(|r| r.id == req.ruleset) else {
        let known: Vec<&str> = reg.catalogue.iter().map(|r| r.id.as_str()).collect();
        return Err(ApiError::bad_body(format!(
            "no ruleset `{}` on this server (rulesets: {})",
            req.ruleset,
            known.join(", ")
        )));
    };
    if let Some(s) = &req.scenario {
        if !ruleset.scenarios.contains(s) {
            return Err(ApiError::bad_body(format!(
                "no scenario `{s}` of `{}` on this server (scenarios: {})",
                ruleset.id,
                ruleset.scenarios.join(", ")
            )));
        }
    }
    let set: Vec<(String, Value)> = req.set.unwrap_or_default().into_iter().collect();
    if set.len() > MAX_OVERRIDES || set.iter().any(|(k, _)| k.is_empty()) {
        return Err(ApiError::bad_body(format!(
            "`set` takes at most {MAX_OVERRIDES} overrides, each a dotted path to a value"
        )));
    }
    let seed = match req.seed {
        Some(s) => s,
        None => super::secret::seed().map_err(ApiError::internal)?,
    };
    let slot = reg.reserve()?;
    let worker = reg.pick_worker();
    let request = CreateRequest {
        ruleset: ruleset.clone(),
        scenario: req.scenario,
        set,
        seed,
        seats: req.seats,
        worker,
        now_ms: reg.now_ms(),
    };
    let entry = ask(&reg, worker, |tx| Job::Create(Box::new(request), tx)).await?;
    let tokens: Map<String, Value> = entry
        .game()
        .players
        .iter()
        .zip(&entry.seats)
        .filter_map(|(p, s)| match s {
            Seat::Remote(t) => Some((p.clone(), Value::String(t.clone()))),
            Seat::Agent(_) => None,
        })
        .collect();
    let id = entry.id.clone();
    reg.insert(entry, slot);
    Ok((
        StatusCode::CREATED,
        Json(json!({"id": id, "tokens": tokens, "seed": seed})),
    ))
}

async fn status(State(reg): Reg, Path(id): Path<String>) -> Answer {
    Ok(Json(reg.get(&id)?.status_json()))
}

async fn state(State(reg): Reg, Path(id): Path<String>, headers: HeaderMap) -> Answer {
    let entry = reg.get(&id)?;
    let viewer = match bearer(&headers)? {
        Some(t) => Some(entry.seat_of(t).ok_or_else(ApiError::forbidden)?),
        None => None,
    };
    Ok(Json(entry.state_json(viewer)))
}

async fn legal(State(reg): Reg, Path(id): Path<String>, headers: HeaderMap) -> Answer {
    let entry = reg.get(&id)?;
    let player = seat(&entry, &headers)?;
    let e = entry.clone();
    let actions = ask(&reg, entry.worker, move |reply| Job::Legal {
        entry: e,
        player,
        reply,
    })
    .await?;
    let name = &entry.game().players[player as usize];
    Ok(Json(json!({"player": name, "actions": actions})))
}

async fn submit(
    State(reg): Reg,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Answer {
    let entry = reg.get(&id)?;
    let player = seat(&entry, &headers)?;
    let v = body_json(&reg, body)?;
    let actions = match v.get("actions") {
        Some(Value::Array(a)) if a.len() <= MAX_SUBMISSION => a.clone(),
        Some(Value::Array(_)) => {
            return Err(ApiError::bad_body(format!(
                "a submission holds at most {MAX_SUBMISSION} actions"
            )))
        }
        _ => return Err(ApiError::bad_body("a submission is {\"actions\": [...]}")),
    };
    let e = entry.clone();
    let events = ask(&reg, entry.worker, move |reply| Job::Submit {
        entry: e,
        player,
        actions,
        reply,
    })
    .await?;
    Ok(Json(json!({"events": events})))
}

#[derive(Deserialize)]
struct Since {
    since: Option<usize>,
    wait_ms: Option<u64>,
}

async fn events(State(reg): Reg, Path(id): Path<String>, Query(q): Query<Since>) -> Answer {
    let entry = reg.get(&id)?;
    let since = q.since.unwrap_or(0);
    let wait = Duration::from_millis(q.wait_ms.unwrap_or(0).min(MAX_WAIT_MS));
    let mut changes = entry.changed.subscribe();
    let until = tokio::time::Instant::now() + wait;
    let mut done = wait.is_zero();
    loop {
        {
            let d = entry.data();
            let next = d.events.len();
            if next > since || done {
                let new = d.events.get(since.min(next)..).unwrap_or_default().to_vec();
                return Ok(Json(json!({"events": new, "next": next})));
            }
        }
        // Any change of the match ends the wait (whose turn it is may change without an event).
        let _ = tokio::time::timeout_at(until, changes.changed()).await;
        done = true;
        entry.touch(reg.now_ms());
    }
}

async fn replay(State(reg): Reg, Path(id): Path<String>) -> Answer {
    let entry = reg.get(&id)?;
    if hides_anything(entry.game()) && !entry.data().m.state.is_over() {
        return Err(ApiError::conflict(
            "hidden_information",
            "this game keeps things from its players: its replay is served once the game is over",
        ));
    }
    Ok(Json(entry.replay_json()))
}
