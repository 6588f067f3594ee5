//! Third-party upstreams (weather, alerts, geolocation) as clients hear of them: each by its role,
//! never by its URL; why one gave no usable answer; and the cap on the size of an answer. Reaching
//! them is the handlers' work (`crate::handlers::upstream`).

use crate::http::problem::{ErrorCode, Problem};

/// The largest upstream answer read (2 MiB); a larger one is a failure, like an upstream that is
/// down (no feed or forecast is that big, and the cache's budget is shared).
pub const MAX_ANSWER_BYTES: usize = 2 << 20;

/// How long a failure is remembered, in seconds (never longer than `upstreams.cache_seconds`, so
/// a site that turns the cache off asks every time).
pub const FAILURE_MEMORY_SECS: u64 = 5;

/// An upstream, by its role: the only name clients see.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Upstream {
    /// `upstreams.weather`.
    Weather,
    /// `upstreams.weather_alerts`.
    WeatherAlerts,
    /// `upstreams.geolocation`.
    Geolocation,
}

impl Upstream {
    /// The upstream as a client reads its name.
    pub fn role(self) -> &'static str {
        match self {
            Upstream::Weather => "the weather forecast",
            Upstream::WeatherAlerts => "the weather-alert feed",
            Upstream::Geolocation => "the geolocation lookup",
        }
    }

    /// The 503 saying this upstream is unavailable and why (`why` must not name a URL).
    pub fn unavailable(self, why: impl std::fmt::Display) -> Problem {
        let role = self.role();
        let capitalised = format!("{}{}", role[..1].to_ascii_uppercase(), &role[1..]);
        Problem::new(ErrorCode::UpstreamUnavailable, format!("{capitalised} is unavailable: {why}."))
    }

    pub(crate) fn failure_key(self) -> String {
        format!("upstream-failed\u{1f}{}", self.role())
    }
}

/// Why an upstream gave no usable answer; its text is safe to show to clients.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// No answer within the timeout, or no connection.
    Unreachable,
    /// An answer other than 2xx.
    Status(u16),
    /// An answer over [`MAX_ANSWER_BYTES`].
    TooLarge,
    /// It failed a moment ago, and is not asked again yet.
    Remembered,
}

impl Failure {
    /// Whether the failure says the upstream is down (remembered), rather than that it has
    /// nothing for this one request (a 4xx such as 404).
    pub(crate) fn is_outage(&self) -> bool {
        !matches!(self, Failure::Status(status) if (400..500).contains(status) && *status != 429)
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Unreachable => f.write_str("it did not answer in time"),
            Failure::Status(status) => write!(f, "it answered with status {status}"),
            Failure::TooLarge => write!(f, "its answer is over the {} MiB limit", MAX_ANSWER_BYTES >> 20),
            Failure::Remembered => {
                write!(f, "it failed moments ago and is asked again within {FAILURE_MEMORY_SECS} seconds")
            }
        }
    }
}
