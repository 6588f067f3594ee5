//! schema.org JSON-LD of the pages that describe one thing (docs/standards.md#json-ld): an
//! encyclopedia entry is an `Article`, and records of five collections have a type of their own
//! (`JobPosting`, `Event`, `NewsArticle`, `Course`, `Service`). One `<script
//! type="application/ld+json">` in the page's head carries it, written by [`script`], which keeps
//! `</script>` in a title from ending the element.
//!
//! The properties search engines require (Google's rich results: a job's title, description,
//! datePosted, hiringOrganization and jobLocation or applicantLocationRequirements; an event's
//! name, startDate and location) are filled whenever the record has the data; [`missing`] names
//! those it lacks, for a build warning.

use serde_json::{json, Value};

use crate::content::event::{self, Status, ZoneFn};
use crate::content::{plain, Entry, Record, SiteConfig};
use crate::pages::i18n::Strings;

/// JSON as the text of a `<script>` element: `<`, `>` and `&` as `\u003c`, `\u003e`, `\u0026`
/// (the same JSON to a parser), so no value can close the element or open a comment.
pub fn script(value: &Value) -> String {
    value.to_string().replace('<', "\\u003c").replace('>', "\\u003e").replace('&', "\\u0026")
}

/// The schema.org `Article` of an entry, with absolute URLs under the site's base URL.
pub fn article(entry: &Entry, site: &SiteConfig) -> Value {
    let record = &entry.record;
    let url = format!("{}{}", site.base(), record.url);
    let mut article = json!({
        "@context": "https://schema.org",
        "@type": "Article",
        "@id": url,
        "url": url,
        "headline": record.title,
        "name": record.title,
        "inLanguage": entry.language.clone().unwrap_or_else(|| site.language.clone()),
        "citation": entry.sources.iter().map(|source| {
            let mut work = json!({"@type": "CreativeWork", "name": source.title, "url": source.url});
            if let Some(publisher) = &source.publisher {
                work["publisher"] = json!({"@type": "Organization", "name": publisher});
            }
            if let Some(date) = &source.date {
                work["datePublished"] = json!(date);
            }
            work
        }).collect::<Vec<_>>(),
        "isPartOf": {"@type": "WebSite", "name": site.title, "url": site.base()},
    });
    let extra = [
        ("description", description(record).map(Value::from)),
        ("dateModified", record.updated.or(record.date).map(|d| Value::from(d.date()))),
        ("about", record.category.clone().map(|c| json!({"@type": "Thing", "name": c}))),
        ("keywords", (!record.tags.is_empty()).then(|| json!(record.tags))),
        ("alternateName", (!entry.aliases.is_empty()).then(|| json!(entry.aliases))),
        ("license", crate::content::license::parse(&site.license).and_then(|l| l.url).map(Value::from)),
    ];
    set_all(&mut article, extra);
    article
}

/// A record's `description`: the plain text of its summary, else of its rendered body (else of its
/// markdown), at most [`plain::DESCRIPTION_CHARS`] characters; never markup or the raw body.
fn description(record: &Record) -> Option<String> {
    let summary = record.summary.as_deref().map(plain::summary).filter(|s| !s.is_empty());
    let body = || match (&record.html, &record.body) {
        (Some(html), _) => Some(plain::html(html)),
        (None, Some(body)) => Some(plain::summary(&crate::search::excerpt::plain(body))),
        (None, None) => None,
    };
    summary.or_else(body).filter(|s| !s.is_empty())
}

/// The schema.org type of a collection's records, for those that have one.
pub fn type_of(collection: &str) -> Option<&'static str> {
    match collection {
        "jobs" => Some("JobPosting"),
        "events" => Some("Event"),
        "news" => Some("NewsArticle"),
        "courses" => Some("Course"),
        "services" => Some("Service"),
        _ => None,
    }
}

/// What the JSON-LD of a record reads besides it.
pub struct Context<'a> {
    /// The site's settings (base URL, title, language, labels).
    pub site: &'a SiteConfig,
    /// The interface text (labels of zones).
    pub strings: &'a Strings,
    /// The site's time zone, for times written without an offset.
    pub zone: Option<ZoneFn<'a>>,
}

fn set_all<const N: usize>(target: &mut Value, pairs: [(&str, Option<Value>); N]) {
    for (key, value) in pairs {
        if let Some(value) = value {
            target[key] = value;
        }
    }
}

fn text<'a>(record: &'a Record, key: &str) -> Option<&'a str> {
    record.fields.get(key).and_then(Value::as_str).map(str::trim).filter(|s| !s.is_empty())
}

fn organization(name: &str) -> Value {
    json!({"@type": "Organization", "name": name})
}

impl Context<'_> {
    /// The site as an organization: who publishes what names no one else.
    fn site_organization(&self) -> Value {
        let mut org = organization(&self.site.title);
        if !self.site.base().is_empty() {
            org["url"] = json!(self.site.base());
        }
        org
    }

    /// The organization one of `keys` names, else the site.
    fn organization_of(&self, record: &Record, keys: &[&str]) -> Value {
        event::named(&record.fields, keys).map_or_else(|| self.site_organization(), organization)
    }

    /// The record's place as a `Place` with a `PostalAddress` (and coordinates when it has them).
    fn place(&self, record: &Record) -> Option<Value> {
        let line = event::place(&record.fields, self.site, self.strings)?;
        let name = event::named(&record.fields, &["venue", "location"]).unwrap_or(&line);
        let street = event::venue(&record.fields).address.unwrap_or(&line);
        let mut address = json!({"@type": "PostalAddress", "streetAddress": street});
        let written = ["venue", "location"].iter().find_map(|k| record.fields.get(*k)?.get("address"));
        if let Some(address_fields) = written {
            if let Some(map) = address_fields.as_object() {
                address = json!({"@type": "PostalAddress"});
                for key in ["streetAddress", "addressLocality", "addressRegion", "postalCode", "addressCountry"] {
                    if let Some(v) = map.get(key).filter(|v| v.is_string()) {
                        address[key] = v.clone();
                    }
                }
            }
        }
        let mut place = json!({"@type": "Place", "name": name, "address": address});
        if let Some((lat, lon)) = event::geo(&record.fields) {
            place["geo"] = json!({"@type": "GeoCoordinates", "latitude": lat, "longitude": lon});
        }
        Some(place)
    }

    /// The site's own place (site.yaml `address`), for jobs that name none.
    fn site_place(&self) -> Option<Value> {
        const KEYS: [&str; 5] = ["streetAddress", "addressLocality", "addressRegion", "postalCode", "addressCountry"];
        let mut address = json!({"@type": "PostalAddress"});
        for (key, value) in self.site.address.iter().filter(|(k, _)| KEYS.contains(&k.as_str())) {
            address[key.as_str()] = json!(value);
        }
        let name = self.site.address.get("addressLocality").unwrap_or(&self.site.title);
        (address.as_object().map_or(0, |a| a.len()) > 1)
            .then(|| json!({"@type": "Place", "name": name, "address": address}))
    }

    /// The JSON-LD of `record`, when its collection has a schema.org type. Its `image` is the
    /// caller's to add: only the build knows which pictures are published.
    pub fn record(&self, record: &Record) -> Option<Value> {
        let kind = type_of(&record.collection)?;
        let url = format!("{}{}", self.site.base(), record.url);
        let mut out = json!({"@context": "https://schema.org", "@type": kind, "@id": url, "url": url});
        let language = text(record, "language").unwrap_or(&self.site.language);
        let description = description(record).map(Value::from);
        set_all(
            &mut out,
            [
                ("inLanguage", Some(json!(language))),
                ("description", description),
                ("keywords", (!record.tags.is_empty()).then(|| json!(record.tags.join(", ")))),
            ],
        );
        match kind {
            "JobPosting" => self.job(record, &mut out),
            "Event" => self.event(record, &mut out),
            "NewsArticle" => self.news(record, &mut out),
            "Course" => {
                out["name"] = json!(record.title);
                out["provider"] = self.organization_of(record, &["provider", "organization", "organisation"]);
            }
            _ => self.service(record, &mut out),
        }
        Some(out)
    }

    fn job(&self, record: &Record, out: &mut Value) {
        out["title"] = json!(record.title);
        let employer = ["organization", "organisation", "employer", "hiring_organization"];
        out["hiringOrganization"] = self.organization_of(record, &employer);
        let remote = record.fields.get("remote").and_then(Value::as_bool).unwrap_or(false);
        let requirement = text(record, "applicant_location").map(|c| json!({"@type": "Country", "name": c}));
        set_all(
            out,
            [
                ("datePosted", record.date.and(text(record, "date")).map(Value::from)),
                ("validThrough", ["deadline", "valid_through"].iter().find_map(|k| text(record, k)).map(Value::from)),
                ("jobLocation", if remote { None } else { self.place(record).or_else(|| self.site_place()) }),
                ("applicantLocationRequirements", requirement),
                ("jobLocationType", remote.then(|| json!("TELECOMMUTE"))),
                ("employmentType", employment_type(record)),
            ],
        );
    }

    fn event(&self, record: &Record, out: &mut Value) {
        out["name"] = json!(record.title);
        let when = event::when(&record.fields, self.zone);
        let online = matches!(text(record, "attendance"), Some("online"))
            || record.fields.get("online").and_then(Value::as_bool) == Some(true);
        let mode = match (online, text(record, "attendance")) {
            (true, _) => "OnlineEventAttendanceMode",
            (_, Some("mixed")) => "MixedEventAttendanceMode",
            _ => "OfflineEventAttendanceMode",
        };
        let status = match event::status(&record.fields) {
            Some(Status::Cancelled) => "EventCancelled",
            Some(Status::Postponed) => "EventPostponed",
            Some(Status::Rescheduled) => "EventRescheduled",
            None => "EventScheduled",
        };
        let organizer = event::named(&record.fields, &["organizer", "organiser", "organization", "organisation"]);
        set_all(
            out,
            [
                ("startDate", when.map(|w| json!(w.start.iso()))),
                ("endDate", when.and_then(|w| w.end).map(|e| json!(e.iso()))),
                ("location", self.place(record)),
                ("organizer", organizer.map(organization)),
                ("eventStatus", Some(json!(format!("https://schema.org/{status}")))),
                ("eventAttendanceMode", Some(json!(format!("https://schema.org/{mode}")))),
            ],
        );
    }

    fn news(&self, record: &Record, out: &mut Value) {
        out["headline"] = json!(record.title);
        let author = match record.fields.get("author") {
            Some(Value::String(name)) if !name.trim().is_empty() => {
                Some(json!({"@type": "Person", "name": name.trim()}))
            }
            Some(Value::Array(names)) => {
                let people: Vec<Value> =
                    names.iter().filter_map(Value::as_str).map(|n| json!({"@type": "Person", "name": n})).collect();
                (!people.is_empty()).then(|| json!(people))
            }
            _ => None,
        };
        set_all(
            out,
            [
                ("datePublished", record.date.and(text(record, "date")).map(Value::from)),
                ("dateModified", record.updated.and(text(record, "updated")).or(text(record, "date")).map(Value::from)),
                ("author", author.or_else(|| Some(self.site_organization()))),
                ("publisher", Some(self.site_organization())),
            ],
        );
    }

    fn service(&self, record: &Record, out: &mut Value) {
        out["name"] = json!(record.title);
        out["provider"] = self.organization_of(record, &["provider", "organization", "organisation", "operator"]);
        let area = event::place(&record.fields, self.site, self.strings).map(|p| json!({"@type": "Place", "name": p}));
        set_all(
            out,
            [
                ("areaServed", area.or_else(|| Some(json!({"@type": "Place", "name": self.site.title})))),
                ("serviceType", record.category.clone().map(Value::from)),
            ],
        );
    }
}

/// schema.org's `employmentType` of `employment_type` (else `contract`): the first kind its
/// words name (`full-time` is `FULL_TIME`), else the text as written.
fn employment_type(record: &Record) -> Option<Value> {
    let written = text(record, "employment_type").or_else(|| text(record, "contract"))?;
    let lower = written.to_ascii_lowercase().replace(['-', '_'], " ");
    let kinds = [
        ("full time", "FULL_TIME"),
        ("part time", "PART_TIME"),
        ("apprentice", "INTERN"),
        ("intern", "INTERN"),
        ("volunteer", "VOLUNTEER"),
        ("temporary", "TEMPORARY"),
        ("per diem", "PER_DIEM"),
        ("contract", "CONTRACTOR"),
    ];
    let kind = kinds.iter().find(|(words, _)| lower.contains(words)).map(|(_, kind)| *kind);
    Some(json!(kind.unwrap_or("OTHER")))
}

/// The properties search engines require that `record`'s JSON-LD lacks (jobs and events only).
pub fn missing(record: &Record, site: &SiteConfig) -> Vec<&'static str> {
    let strings = Strings::default();
    let context = Context { site, strings: &strings, zone: None };
    let Some(value) = context.record(record) else { return Vec::new() };
    let required: &[&'static str] = match record.collection.as_str() {
        "jobs" => &["title", "description", "datePosted", "hiringOrganization", "jobLocation"],
        "events" => &["name", "startDate", "location"],
        _ => &[],
    };
    let has = |key: &str| value.get(key).is_some_and(|v| !v.is_null());
    required
        .iter()
        .copied()
        .filter(|key| !has(key))
        .filter(|key| *key != "jobLocation" || !has("applicantLocationRequirements"))
        .collect()
}

/// Warnings for a record whose JSON-LD lacks what search engines require, phrased for its author.
pub fn warnings(record: &Record, site: &SiteConfig) -> Vec<String> {
    let lacking = missing(record, site);
    if lacking.is_empty() {
        return Vec::new();
    }
    let kind = type_of(&record.collection).unwrap_or_default();
    let fix = |property: &str| match property {
        "description" => "a `summary` (or a body)",
        "datePosted" => "a `date`",
        "jobLocation" => "a `location` (or site.yaml `address`)",
        "startDate" => "a `start` (or `date`)",
        "location" => "a `venue` or `location`",
        _ => "a `title`",
    };
    let names: Vec<String> = lacking.iter().map(|k| format!("`{k}`")).collect();
    let fixes: Vec<&str> = lacking.iter().map(|k| fix(k)).collect();
    vec![format!(
        "its schema.org {kind} lacks {}, which search engines require: add {}",
        names.join(", "),
        fixes.join(", ")
    )]
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Map;

    fn record_of(collection: &str, fields: Value) -> Record {
        let map: Map<String, Value> = fields.as_object().cloned().unwrap_or_default();
        Record::from_fields(collection, "x", map, None).expect("a valid record")
    }

    #[test]
    fn script_text_cannot_close_its_element() {
        let value = json!({"name": "</script><script>alert(1)</script> & <!--"});
        let text = script(&value);
        assert!(!text.contains('<') && !text.contains('>') && !text.contains('&'), "{text}");
        assert_eq!(serde_json::from_str::<Value>(&text).ok(), Some(value));
    }

    #[test]
    fn a_description_is_plain_text_never_the_raw_body() {
        let body =
            "## Hours\n\nOpen **08:00** & [late](/x). <script>x</script>\n\n".to_string() + &"More. ".repeat(100);
        let map: Map<String, Value> = json!({"title": "Clinic"}).as_object().cloned().unwrap_or_default();
        let mut service = Record::from_fields("services", "x", map, Some(body)).expect("a record");
        service.html = Some("<h2>Hours</h2><p>Open <strong>08:00</strong> &amp; <a href=\"/x\">late</a>.</p>".into());
        let (site, strings) = (SiteConfig::default(), Strings::default());
        let context = Context { site: &site, strings: &strings, zone: None };
        let value = context.record(&service).expect("a service");
        assert_eq!(value["description"], "Hours Open 08:00 & late.");
        service.html = None;
        let value = context.record(&service).expect("a service");
        let text = value["description"].as_str().unwrap_or_default();
        assert!(text.starts_with("Hours Open 08:00 & late"), "{text}");
        assert!(!text.contains(['*', '#', '<', '(']) && text.chars().count() <= plain::DESCRIPTION_CHARS + 1, "{text}");
        service.summary = Some("**Free** care, [day](/d) and night.".into());
        assert_eq!(context.record(&service).expect("a service")["description"], "Free care, day and night.");
    }

    #[test]
    fn a_job_has_what_rich_results_require_or_says_what_it_lacks() {
        let job = record_of(
            "jobs",
            json!({"title": "Teachers", "summary": "Four teachers.", "date": "2026-11-09", "employer": "Partners",
                "deadline": "2026-12-11", "location": "School, Zone B", "contract": "full-time, 1 year"}),
        );
        assert!(missing(&job, &SiteConfig::default()).is_empty(), "{:?}", missing(&job, &SiteConfig::default()));
        let site = SiteConfig { title: "Site".into(), ..SiteConfig::default() };
        let strings = Strings::default();
        let value = Context { site: &site, strings: &strings, zone: None }.record(&job).expect("a job");
        assert_eq!(value["@type"], "JobPosting");
        assert_eq!(value["hiringOrganization"]["name"], "Partners");
        assert_eq!(value["jobLocation"]["address"]["streetAddress"], "School, Zone B");
        assert_eq!(value["employmentType"], "FULL_TIME");
        assert_eq!(value["validThrough"], "2026-12-11");
        let bare = record_of("jobs", json!({"title": "Someone"}));
        assert_eq!(missing(&bare, &SiteConfig::default()), ["description", "datePosted", "jobLocation"]);
        let mut settled = SiteConfig::default();
        settled.address.insert("addressCountry".into(), "UG".into());
        assert_eq!(missing(&bare, &settled), ["description", "datePosted"], "the site's address stands in");
        assert_eq!(warnings(&bare, &SiteConfig::default()).len(), 1);
    }

    #[test]
    fn an_event_has_its_times_place_and_status() {
        let event = record_of(
            "events",
            json!({"title": "Market", "start": "2026-12-05T08:00:00+03:00", "venue": "Square", "status": "postponed",
                "organiser": "Committee"}),
        );
        assert!(missing(&event, &SiteConfig::default()).is_empty());
        let site = SiteConfig::default();
        let strings = Strings::default();
        let value = Context { site: &site, strings: &strings, zone: None }.record(&event).expect("an event");
        assert_eq!(value["startDate"], "2026-12-05T08:00:00+03:00");
        assert_eq!(value["location"]["@type"], "Place");
        assert_eq!(value["eventStatus"], "https://schema.org/EventPostponed");
        assert_eq!(value["organizer"]["name"], "Committee");
        assert_eq!(missing(&record_of("events", json!({"title": "When?"})), &site), ["startDate", "location"]);
        assert!(missing(&record_of("news", json!({"title": "News"})), &site).is_empty());
    }

    #[test]
    fn an_event_written_with_starts_and_a_venue_mapping_has_its_time_and_place() {
        let event = record_of(
            "events",
            json!({"title": "Fair", "starts": "2026-12-03 14:00", "venue": {"name": "Hall", "address": "Plot 4"}}),
        );
        let (site, strings) = (SiteConfig::default(), Strings::default());
        let kampala = |_: i64| 180;
        let value = Context { site: &site, strings: &strings, zone: Some(&kampala) }.record(&event).expect("an event");
        assert_eq!(value["startDate"], "2026-12-03T14:00:00+03:00");
        assert_eq!(value["location"]["name"], "Hall");
        assert_eq!(value["location"]["address"]["streetAddress"], "Plot 4");
    }
}
