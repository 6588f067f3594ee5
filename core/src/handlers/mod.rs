//! The handlers: plain async functions of a request context, one file per resource.

pub mod bookings;
pub mod collections;
pub mod encyclopedia;
pub mod export;
pub mod files;
pub mod form_pages;
pub mod geolocation;
pub mod match_category;
pub mod page;
pub mod search;
pub mod search_page;
pub mod spatial;
pub mod submit;
pub mod upstream;
pub mod voices;
pub mod weather;
pub mod weather_alerts;

use crate::app::App;
use crate::http::problem::Problem;
use crate::http::query::Query;
use crate::http::{Request, Response};
use crate::platform::Platform;
use crate::routing::{Handler, Params};

/// Everything a handler may look at: the build, the platform, the request and its parsed parts.
pub struct Ctx<'a, P> {
    /// The build.
    pub app: &'a App,
    /// The platform (files, state, clock).
    pub platform: &'a P,
    /// The request.
    pub request: &'a Request,
    /// The route's placeholders.
    pub params: &'a Params,
    /// The query string.
    pub query: Query,
    /// The request time (Unix milliseconds), read once.
    pub now_ms: u64,
}

/// Runs the handler the route table names.
pub async fn run<P: Platform>(handler: Handler, ctx: &Ctx<'_, P>) -> Result<Response, Problem> {
    match handler {
        Handler::Collection => collections::handle(ctx).await,
        Handler::PageRedirect => files::redirect_page(ctx).await,
        Handler::SearchPage => search_page::handle(ctx).await,
        Handler::VoiceForm => form_pages::voice(ctx).await,
        Handler::VoiceSent => form_pages::voice_sent(ctx).await,
        Handler::BookingForm => form_pages::booking(ctx).await,
        Handler::BookingSent => form_pages::booking_sent(ctx).await,
        Handler::Search => search::handle(ctx).await,
        Handler::EncyclopediaList => encyclopedia::list(ctx).await,
        Handler::EncyclopediaSuggest => encyclopedia::suggestions(ctx).await,
        Handler::EncyclopediaFacets => encyclopedia::facet_counts(ctx).await,
        Handler::Mcp => crate::agents::mcp::handle(ctx).await,
        Handler::Export => export::handle(ctx).await,
        Handler::MatchCategory => match_category::handle(ctx).await,
        Handler::SubmitVoice => voices::handle(ctx).await,
        Handler::Booking => bookings::handle(ctx).await,
        Handler::Weather => weather::handle(ctx).await,
        Handler::WeatherAlerts => weather_alerts::handle(ctx).await,
        Handler::Geolocation => geolocation::handle(ctx).await,
        Handler::SpatialJson => spatial::geojson(ctx).await,
        Handler::SpatialCsv => spatial::csv(ctx).await,
    }
}
