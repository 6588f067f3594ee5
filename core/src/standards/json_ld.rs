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
use crate::content::i18n::Strings;
use crate::content::{plain, Entry, Record, SiteConfig};

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
        ("datePublished", record.date.or(record.updated).map(|d| Value::from(d.date()))),
        ("dateModified", record.updated.or(record.date).map(|d| Value::from(d.date()))),
        ("author", authors(record, site).or_else(|| Some(site_publisher(site)))),
        ("publisher", Some(site_publisher(site))),
        ("about", record.category.clone().map(|c| json!({"@type": "Thing", "name": c}))),
        ("keywords", (!record.tags.is_empty()).then(|| json!(record.tags))),
        ("alternateName", (!entry.aliases.is_empty()).then(|| json!(entry.aliases))),
        ("license", crate::content::license::parse(&site.license).and_then(|l| l.url).map(Value::from)),
    ];
    set_all(&mut article, extra);
    article
}

/// The site as the organisation that publishes its pages.
fn site_publisher(site: &SiteConfig) -> Value {
    let mut org = organization(if site.title.is_empty() { "portal" } else { &site.title });
    if !site.base().is_empty() {
        org["url"] = json!(site.base());
    }
    org
}

/// A record's `description`: the plain text of its summary, else of its rendered body (else of its
/// markdown), at most [`plain::DESCRIPTION_CHARS`] characters; never markup or the raw body.
fn description(record: &Record) -> Option<String> {
    let summary = record.summary.as_deref().map(plain::summary).filter(|s| !s.is_empty());
    let body = || match (&record.html, &record.body) {
        (Some(html), _) => Some(plain::html(html)),
        (None, Some(body)) => Some(plain::summary(&plain::markdown(body))),
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

/// The properties of a schema.org `PostalAddress` that records and site.yaml `address` write.
const ADDRESS_KEYS: [&str; 5] = ["streetAddress", "addressLocality", "addressRegion", "postalCode", "addressCountry"];

/// Words that make a byline an organisation's rather than a person's ("Amani editors", "Amani
/// Health Centre", "La rédaction d'Amani"), in the languages of the sample site; compared with
/// the byline's folded words.
const ORGANISATION_WORDS: &[&str] = &[
    "editors",
    "editorial",
    "team",
    "staff",
    "newsroom",
    "desk",
    "office",
    "centre",
    "center",
    "committee",
    "council",
    "association",
    "society",
    "group",
    "club",
    "network",
    "foundation",
    "organisation",
    "organization",
    "ministry",
    "department",
    "agency",
    "authority",
    "administration",
    "secretariat",
    "clinic",
    "hospital",
    "school",
    "church",
    "mosque",
    "cooperative",
    "union",
    "ngo",
    "unhcr",
    "unicef",
    "redaction",
    "equipe",
    "comite",
    "bureau",
    "wahariri",
    "timu",
    "kamati",
    "chama",
    "ofisi",
    "kituo",
    "محررو",
    "محرري",
    "فريق",
    "مكتب",
    "مركز",
    "لجنة",
    "جمعية",
    "ادارة",
];

/// A byline as schema.org has it: an `Organization` when it names the site (its title or
/// organisation) or has a word of [`ORGANISATION_WORDS`] (or is written `{name, type:
/// organization}`), else a `Person`.
fn byline(value: &Value, site: &SiteConfig) -> Option<Value> {
    let (name, written_type) = match value {
        Value::String(name) => (name.trim(), None),
        Value::Object(map) => (
            map.get("name").and_then(Value::as_str).map(str::trim).unwrap_or_default(),
            map.get("type").or_else(|| map.get("@type")).and_then(Value::as_str),
        ),
        _ => return None,
    };
    if name.is_empty() {
        return None;
    }
    let words = crate::search::schema::words(name);
    let folded = |text: &str| crate::search::schema::fold(text);
    let site_names =
        [Some(site.title.as_str()), site.organization.as_ref().and_then(|o| o["name"].as_str().or(o.as_str()))];
    let names_site = site_names.into_iter().flatten().any(|s| !s.trim().is_empty() && folded(s) == folded(name));
    let organisation = match written_type.map(str::to_ascii_lowercase).as_deref() {
        Some("organization" | "organisation") => true,
        Some("person") => false,
        _ => names_site || words.iter().any(|w| ORGANISATION_WORDS.contains(&w.as_str())),
    };
    Some(json!({"@type": if organisation { "Organization" } else { "Person" }, "name": name}))
}

/// The `author` of a record: its byline (one or a list), each a Person or an Organization.
fn authors(record: &Record, site: &SiteConfig) -> Option<Value> {
    match record.fields.get("author")? {
        Value::Array(names) => {
            let all: Vec<Value> = names.iter().filter_map(|n| byline(n, site)).collect();
            (!all.is_empty()).then(|| json!(all))
        }
        one => byline(one, site),
    }
}

impl Context<'_> {
    /// The site as an organization: who publishes what names no one else.
    fn site_organization(&self) -> Value {
        site_publisher(self.site)
    }

    /// The organization one of `keys` names, else the site.
    fn organization_of(&self, record: &Record, keys: &[&str]) -> Value {
        event::named(&record.fields, keys).map_or_else(|| self.site_organization(), organization)
    }

    /// The record's place as a `Place` with a structured `PostalAddress` (and coordinates when it
    /// has them): the street from the record (its venue's `address`, else the place as written),
    /// the parts it writes itself (`address` as a mapping of schema.org names), and the locality,
    /// region, postcode and country it leaves out from site.yaml `address`, the settlement's.
    fn place(&self, record: &Record) -> Option<Value> {
        let line = event::place(&record.fields, self.site, self.strings)?;
        let name = event::named(&record.fields, &["venue", "location"]).unwrap_or(&line);
        let street = event::venue(&record.fields).address.unwrap_or(&line);
        let mut address = json!({"@type": "PostalAddress", "streetAddress": street});
        let written = ["venue", "location"].iter().find_map(|k| record.fields.get(*k)?.get("address"));
        if let Some(map) = written.and_then(Value::as_object) {
            address = json!({"@type": "PostalAddress"});
            for key in ADDRESS_KEYS {
                if let Some(v) = map.get(key).filter(|v| v.is_string()) {
                    address[key] = v.clone();
                }
            }
        }
        for key in ADDRESS_KEYS.into_iter().filter(|k| *k != "streetAddress") {
            if let (None, Some(site)) = (address.get(key), self.site.address.get(key)) {
                address[key] = json!(site);
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
        let mut address = json!({"@type": "PostalAddress"});
        for (key, value) in self.site.address.iter().filter(|(k, _)| ADDRESS_KEYS.contains(&k.as_str())) {
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
        let author = authors(record, self.site);
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

    fn settlement() -> SiteConfig {
        let mut site = SiteConfig { title: "Amani Portal".into(), ..SiteConfig::default() };
        site.address.insert("addressLocality".into(), "Amani".into());
        site.address.insert("addressCountry".into(), "UG".into());
        site
    }

    #[test]
    fn a_place_of_its_own_keeps_the_sites_country_and_is_structured() {
        let (site, strings) = (settlement(), Strings::default());
        let context = Context { site: &site, strings: &strings, zone: None };
        let job = record_of("jobs", json!({"title": "Cook", "location": "School, Zone B"}));
        let address = &context.record(&job).expect("a job")["jobLocation"]["address"];
        assert_eq!(address["streetAddress"], "School, Zone B");
        assert_eq!(
            (address["addressLocality"].as_str(), address["addressCountry"].as_str()),
            (Some("Amani"), Some("UG"))
        );
        let own = record_of(
            "events",
            json!({"title": "Fair", "start": "2026-12-03",
            "venue": {"name": "Hall", "address": {"streetAddress": "Plot 4", "addressCountry": "KE"}}}),
        );
        let place = &context.record(&own).expect("an event")["location"];
        assert_eq!(place["@type"], "Place");
        assert_eq!(place["address"]["@type"], "PostalAddress");
        assert_eq!(place["address"]["addressCountry"], "KE", "the record's own country wins");
        assert_eq!(place["address"]["addressLocality"], "Amani");
    }

    #[test]
    fn a_byline_naming_an_organisation_is_an_organization() {
        let site = settlement();
        let kind = |author: Value| byline(&author, &site).map(|v| v["@type"].clone());
        for organisation in [
            "Amani editors",
            "Amani Health Centre",
            "La rédaction d'Amani",
            "Wahariri wa Amani",
            "محررو أماني",
            "amani portal",
        ] {
            assert_eq!(kind(json!(organisation)), Some(json!("Organization")), "{organisation}");
        }
        assert_eq!(kind(json!("Grace Achieng")), Some(json!("Person")));
        assert_eq!(kind(json!({"name": "Amani Youth", "type": "organization"})), Some(json!("Organization")));
        assert_eq!(kind(json!({"name": "Desk Officer Ali", "type": "person"})), Some(json!("Person")));
        assert_eq!(kind(json!(" ")), None);
        let strings = Strings::default();
        let news = record_of("news", json!({"title": "Rain", "author": ["Amani editors", "Grace Achieng"]}));
        let value = Context { site: &site, strings: &strings, zone: None }.record(&news).expect("news");
        assert_eq!(value["author"][0]["@type"], "Organization");
        assert_eq!(value["author"][1]["@type"], "Person");
    }
}
