//! Errors of the server's API: `{"error": {"code", "message"}}` with the status INTERFACE.md section 11
//! gives each kind.
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;

/// An API error: its status, a stable snake_case code and a message.
#[derive(Clone, Debug, PartialEq)]
pub struct ApiError {
    pub status: StatusCode,
    pub code: &'static str,
    pub message: String,
}

impl ApiError {
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
        ApiError {
            status,
            code,
            message: message.into(),
        }
    }

    /// 400: the body is not what the endpoint takes.
    pub fn bad_body(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, "bad_body", message)
    }

    /// 401: no `Authorization: Bearer TOKEN` where a seat's token is needed.
    pub fn token_missing() -> Self {
        Self::new(
            StatusCode::UNAUTHORIZED,
            "token_missing",
            "this needs a seat's token: `Authorization: Bearer TOKEN`",
        )
    }

    /// 403: a token that is not one of this match's seats.
    pub fn forbidden() -> Self {
        Self::new(
            StatusCode::FORBIDDEN,
            "forbidden",
            "the token is not a seat of this match",
        )
    }

    /// 404: no such match (or route).
    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, "not_found", message)
    }

    /// 409: not this seat's decision now, or the game is over.
    pub fn conflict(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(StatusCode::CONFLICT, code, message)
    }

    /// 413: a body over the limit.
    pub fn too_large(limit: usize) -> Self {
        Self::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "body_too_large",
            format!("the body is over {limit} bytes"),
        )
    }

    /// 429: the server holds as many matches as it may.
    pub fn too_many_matches(limit: usize) -> Self {
        Self::new(
            StatusCode::TOO_MANY_REQUESTS,
            "too_many_matches",
            format!("the server holds {limit} matches, its limit: try again when one has expired"),
        )
    }

    /// 500: the rules failed, or the server could not do what it should.
    pub fn internal(message: impl Into<String>) -> Self {
        Self::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = json!({"error": {"code": self.code, "message": self.message}});
        (self.status, Json(body)).into_response()
    }
}
