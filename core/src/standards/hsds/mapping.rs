//! Records of the `services` collection as HSDS 3.0 items (docs/standards.md#hsds): the one
//! mapping the build writes and the handlers read. It reads a record as the API lists it
//! ([`crate::content::Record::to_json`]) and tolerates every shape front matter takes: a string
//! where a list was expected, a number where a string was, a mapping or nothing at all. Keys it
//! does not map are ignored.

use std::collections::BTreeMap;

use serde_json::{json, Value};

use super::model::{id_of, service_list_item, Kind};
use super::schedule::openings;
use crate::content::phone::{is_phone_key, telephone};
use crate::content::taxonomy::{slug, Taxonomy};
use crate::content::time::parse_content_date;
use crate::content::SiteConfig;

/// Who provides a service: the record's `organization`, else the site's.
#[derive(Debug, Clone, PartialEq)]
pub struct Organization {
    /// Its stable id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// What it is (HSDS requires one).
    pub description: String,
    /// Its website.
    pub website: Option<String>,
    /// Its e-mail address.
    pub email: Option<String>,
}

impl Organization {
    /// The organization an `organization` value names (a name, or `{name, url, email,
    /// description}`); `None` for a value with no name.
    pub fn named(value: &Value, base: &str) -> Option<Organization> {
        let (name, map) = match value {
            Value::String(name) => (name.trim(), None),
            Value::Object(map) => (text(map.get("name"))?, Some(map)),
            _ => return None,
        };
        if name.is_empty() {
            return None;
        }
        let field = |key: &str| map.and_then(|m| text(m.get(key))).map(str::to_string);
        let website = field("url").or_else(|| field("website")).filter(|u| u.starts_with("http"));
        let derived = || id_of(&website.clone().unwrap_or_else(|| format!("{base}/#organization:{}", slug(name))));
        let id = kept_id(map.and_then(|m| m.get("hsds_id"))).unwrap_or_else(derived);
        Some(Organization {
            id,
            name: name.to_string(),
            description: field("description").unwrap_or_else(|| name.to_string()),
            website,
            email: field("email").filter(|e| is_email(e)),
        })
    }

    /// The site's organization: `site.yaml` `organization`, else the site's title and contact.
    pub fn of_site(site: &SiteConfig) -> Organization {
        let base = site.base();
        let home = format!("{base}/");
        let mut organization =
            site.organization.as_ref().and_then(|o| Organization::named(o, base)).unwrap_or_else(|| Organization {
                id: id_of(&home),
                name: if site.title.trim().is_empty() { "portal".into() } else { site.title.trim().into() },
                description: String::new(),
                website: None,
                email: None,
            });
        if organization.website.is_none() && !base.is_empty() {
            organization.website = Some(home);
        }
        if organization.email.is_none() {
            organization.email = Some(site.contact.email.trim().to_string()).filter(|e| is_email(e));
        }
        let undescribed = organization.description == organization.name || organization.description.is_empty();
        if undescribed && !site.description.trim().is_empty() {
            organization.description = site.description.trim().to_string();
        }
        if organization.description.is_empty() {
            organization.description = organization.name.clone();
        }
        organization
    }

    /// The organization as HSDS writes it (without its services).
    pub fn to_json(&self) -> Value {
        let mut out = json!({"id": self.id, "name": self.name, "description": self.description});
        if let Some(email) = &self.email {
            out["email"] = json!(email);
        }
        if let Some(website) = &self.website {
            out["website"] = json!(website);
        }
        out
    }
}

/// The data file ([`super::DATA_FILE`]) of the services `items` (records as the API lists them, in
/// its order), and the first items of each kind, fully nested, for the lists' first pages.
#[derive(Debug)]
pub struct DataFile {
    /// The file's bytes: a [`Dataset`](super::Dataset) as JSON.
    pub bytes: Vec<u8>,
    /// How many items of each kind there are, and the first of them (as many as asked for), in
    /// the order of [`Kind::ALL`].
    pub kinds: Vec<(Kind, usize, Vec<Value>)>,
}

/// Writes the data file of `items` a service at a time, keeping the first `first` items of each
/// kind: a service's items, nested (each of its places holds it again), are a few kilobytes of
/// JSON but tens as values, which a site of tens of thousands of services cannot all hold.
pub fn data_file(items: &[Value], site: &SiteConfig, first: usize) -> DataFile {
    let mapper = Mapper { base: site.base(), site, site_organization: Organization::of_site(site) };
    let (mut services, mut at_locations) = (Items::keeping(first), Items::keeping(first));
    let mut organizations: Vec<(Organization, Items)> = Vec::new();
    let mut terms: BTreeMap<(&'static str, String), Value> = BTreeMap::new();
    for item in items.iter().filter(|item| item.is_object()) {
        let (service, organization) = mapper.service(item);
        for attribute in service["attributes"].as_array().into_iter().flatten() {
            let term = &attribute["taxonomy_term"];
            let taxonomy = if term["taxonomy"] == "tags" { "tags" } else { "categories" };
            let key = (taxonomy, term["code"].as_str().unwrap_or_default().to_string());
            terms.entry(key).or_insert_with(|| term.clone());
        }
        for location in service["service_at_locations"].as_array().into_iter().flatten() {
            let mut at = location.clone();
            let mut nested = service.clone();
            if let Value::Object(map) = &mut nested {
                map.remove("service_at_locations");
            }
            at["service"] = nested;
            at_locations.push(at);
        }
        let listed = service_list_item(&service);
        match organizations.iter_mut().find(|(known, _)| known.id == organization.id) {
            Some((_, services)) => services.push(listed),
            None => {
                let mut services = Items::keeping(0);
                services.push(listed);
                organizations.push((organization, services));
            }
        }
        services.push(service);
    }
    let mut orgs = Items::keeping(first);
    for (organization, services) in organizations {
        // The organization's own members, then `services`: the list is already JSON.
        let mut bytes = serde_json::to_vec(&organization.to_json()).unwrap_or_default();
        bytes.pop();
        bytes.extend_from_slice(b",\"services\":[");
        bytes.extend_from_slice(&services.bytes);
        bytes.extend_from_slice(b"]}");
        orgs.push_json(bytes);
    }
    let taxonomies = Items::of(first, Taxonomy::ALL.iter().map(|t| mapper.taxonomy(*t)));
    let terms = Items::of(first, terms.into_values());
    let kinds = [
        (Kind::Services, services),
        (Kind::Organizations, orgs),
        (Kind::ServiceAtLocations, at_locations),
        (Kind::Taxonomies, taxonomies),
        (Kind::TaxonomyTerms, terms),
    ];
    // Each kind is freed once copied in: the file is the largest the build makes (some 300 MB at a
    // million records), so it is never held twice over.
    let mut bytes =
        Vec::with_capacity(kinds.iter().map(|(kind, items)| items.bytes.len() + kind.name().len() + 6).sum());
    let mut counted = Vec::new();
    for (i, (kind, items)) in kinds.into_iter().enumerate() {
        bytes.extend_from_slice(if i == 0 { b"{\"" } else { b",\"" });
        bytes.extend_from_slice(kind.name().as_bytes());
        bytes.extend_from_slice(b"\":[");
        bytes.extend_from_slice(&items.bytes);
        bytes.push(b']');
        counted.push((kind, items.count, items.first));
    }
    bytes.push(b'}');
    DataFile { bytes, kinds: counted }
}

/// The items of one kind as they are written: their JSON, comma-separated, and the first few kept.
struct Items {
    bytes: Vec<u8>,
    count: usize,
    first: Vec<Value>,
    keep: usize,
}

impl Items {
    fn keeping(keep: usize) -> Items {
        Items { bytes: Vec::new(), count: 0, first: Vec::new(), keep }
    }

    /// `values`, the first `keep` of them kept.
    fn of(keep: usize, values: impl Iterator<Item = Value>) -> Items {
        let mut items = Items::keeping(keep);
        values.for_each(|value| items.push(value));
        items
    }

    fn push(&mut self, value: Value) {
        self.separate();
        // Writing a value into memory cannot fail: its keys are strings.
        let _ = serde_json::to_writer(&mut self.bytes, &value);
        if self.first.len() < self.keep {
            self.first.push(value);
        }
    }

    /// Adds an item written already (read back only when it is one of the first).
    fn push_json(&mut self, json: Vec<u8>) {
        self.separate();
        if self.first.len() < self.keep {
            self.first.push(serde_json::from_slice(&json).unwrap_or_default());
        }
        self.bytes.extend_from_slice(&json);
    }

    fn separate(&mut self) {
        if self.count > 0 {
            self.bytes.push(b',');
        }
        self.count += 1;
    }
}

/// What a record's mapping reads besides the record.
struct Mapper<'a> {
    base: &'a str,
    site: &'a SiteConfig,
    site_organization: Organization,
}

impl Mapper<'_> {
    /// One record as an HSDS service, fully nested, and its organization.
    fn service(&self, item: &Value) -> (Value, Organization) {
        let page = format!("{}{}", self.base, text(item.get("url")).unwrap_or_default());
        let id = kept_id(item.get("hsds_id")).unwrap_or_else(|| id_of(&page));
        let organization = self.organization(item);
        let mut service = json!({
            "id": id,
            "organization_id": organization.id,
            "name": text(item.get("title")).unwrap_or("(untitled)"),
            "status": "active",
            "url": page,
        });
        if let Some(description) = description(item) {
            service["description"] = json!(description);
        }
        let contact = item.get("contact").and_then(Value::as_object);
        let email = text(item.get("email")).or_else(|| contact.and_then(|c| text(c.get("email"))));
        if let Some(email) = email.filter(|e| is_email(e)) {
            service["email"] = json!(email);
        }
        if let Some(modified) = last_modified(item) {
            service["last_modified"] = json!(modified);
        }
        service["phones"] = Value::Array(phones(item, &page, &id));
        service["schedules"] = Value::Array(schedules(item, &page, &id));
        service["languages"] = Value::Array(languages(item, &page, &id));
        service["organization"] = organization.to_json();
        service["service_at_locations"] = Value::Array(self.location(item, &page, &id).into_iter().collect());
        service["attributes"] = Value::Array(self.attributes(item, &page, &id));
        (service, organization)
    }

    /// The record's `organization`, else the site's; one named like the site's is the site's.
    fn organization(&self, item: &Value) -> Organization {
        match item.get("organization").and_then(|o| Organization::named(o, self.base)) {
            Some(named) if !named.name.eq_ignore_ascii_case(&self.site_organization.name) => named,
            _ => self.site_organization.clone(),
        }
    }

    /// The service at its place: `location` (a name, or `{name, latitude, longitude, address,
    /// zone}`) and the record's `zone` as the address.
    fn location(&self, item: &Value, page: &str, service_id: &str) -> Option<Value> {
        let place = item.get("location");
        let map = place.and_then(Value::as_object);
        let name = match place {
            Some(Value::String(name)) => Some(name.trim()).filter(|n| !n.is_empty()),
            _ => map.and_then(|m| text(m.get("name"))),
        };
        let zone = map.and_then(|m| text(m.get("zone"))).or_else(|| text(item.get("zone")));
        let zone = zone.map(|z| self.site.labels.get(z).map_or(z, String::as_str));
        let address = map.and_then(|m| text(m.get("address")));
        let street = map.and_then(|m| text(m.get("address")?.get("streetAddress")));
        let latitude = map.and_then(|m| coordinate(m.get("latitude").or_else(|| m.get("lat")), 90.0));
        let longitude =
            map.and_then(|m| coordinate(m.get("longitude").or_else(|| m.get("lon")).or_else(|| m.get("lng")), 180.0));
        if name.is_none() && zone.is_none() && address.is_none() && latitude.is_none() {
            return None;
        }
        let location_id = id_of(&format!("{page}#location"));
        let mut location = json!({"id": location_id, "location_type": "physical"});
        if let Some(name) = name {
            location["name"] = json!(name);
        }
        if let (Some(latitude), Some(longitude)) = (latitude, longitude) {
            location["latitude"] = json!(latitude);
            location["longitude"] = json!(longitude);
        }
        if let Some(first) = address.or(street).or(zone) {
            let part = |keys: &[&str]| self.address_part(map, keys);
            location["addresses"] = json!([{
                "id": id_of(&format!("{page}#address")), "location_id": location_id,
                "address_1": first, "region": zone.unwrap_or_default(),
                "city": part(&["city", "addressLocality"]),
                "state_province": part(&["state_province", "addressRegion"]),
                "postal_code": part(&["postal_code", "postcode", "postalCode"]),
                "country": part(&["country", "addressCountry"]),
                "address_type": "physical",
            }]);
        }
        Some(json!({
            "id": id_of(&format!("{page}#service_at_location")),
            "service_id": service_id,
            "location_id": location_id,
            "location": location,
        }))
    }

    /// One part of a place's address: the first of `keys` in the record's `location` (or in its
    /// `address` written as a mapping), else site.yaml `address` (schema.org names, the last of
    /// `keys`), else empty, which HSDS allows where a part is unknown.
    fn address_part(&self, location: Option<&serde_json::Map<String, Value>>, keys: &[&str]) -> String {
        let written = location.into_iter().flat_map(|m| [Some(m), m.get("address").and_then(Value::as_object)]);
        let own = written.flatten().find_map(|m| keys.iter().find_map(|k| text(m.get(*k))));
        let site = keys.last().and_then(|k| self.site.address.get(*k)).map(|v| v.trim()).filter(|v| !v.is_empty());
        own.or(site).unwrap_or_default().to_string()
    }

    /// The record's category and tags as attributes linking the service to taxonomy terms.
    fn attributes(&self, item: &Value, page: &str, service_id: &str) -> Vec<Value> {
        let mut terms: Vec<(Taxonomy, &str)> =
            strings(item.get("category")).map(|c| (Taxonomy::Categories, c)).collect();
        terms.extend(strings(item.get("tags")).map(|t| (Taxonomy::Tags, t)));
        let mut seen: Vec<(Taxonomy, String)> = Vec::new();
        let mut attributes = Vec::new();
        for (taxonomy, name) in terms {
            let code = slug(name);
            if code.is_empty() || seen.contains(&(taxonomy, code.clone())) {
                continue;
            }
            let term = self.term(taxonomy, name);
            attributes.push(json!({
                "id": id_of(&format!("{page}#attribute:{}/{code}", taxonomy.name())),
                "link_id": service_id,
                "link_type": taxonomy.name(),
                "link_entity": "service",
                "taxonomy_term_id": term["id"],
                "taxonomy_term": term,
            }));
            seen.push((taxonomy, code));
        }
        attributes
    }

    /// A term of a taxonomy, with its taxonomy.
    fn term(&self, taxonomy: Taxonomy, name: &str) -> Value {
        let code = slug(name);
        let uri = format!("{}{}", self.base, taxonomy.term_url(&code));
        let detail = self.taxonomy(taxonomy);
        json!({
            "id": id_of(&uri),
            "code": code,
            "name": name.trim(),
            "description": format!("{} {}: {}", self.site_organization.name, singular(taxonomy), name.trim()),
            "taxonomy": taxonomy.name(),
            "taxonomy_id": detail["id"],
            "term_uri": uri,
            "taxonomy_detail": detail,
        })
    }

    /// One of the site's two taxonomies.
    fn taxonomy(&self, taxonomy: Taxonomy) -> Value {
        let uri = format!("{}{}", self.base, taxonomy.index_url());
        json!({
            "id": id_of(&uri),
            "name": taxonomy.name(),
            "description": format!("The {} of {} (front matter `{}`).", taxonomy.name(), self.site_organization.name,
                if taxonomy == Taxonomy::Tags { "tags" } else { "category" }),
            "uri": uri,
        })
    }
}

/// "tag" or "category".
fn singular(taxonomy: Taxonomy) -> &'static str {
    match taxonomy {
        Taxonomy::Tags => "tag",
        Taxonomy::Categories => "category",
    }
}

/// The HSDS id an imported record keeps (`hsds_id`, docs/content.md#sources) when it is the UUID
/// HSDS requires; otherwise the id is derived, as for any record.
fn kept_id(value: Option<&Value>) -> Option<String> {
    text(value).and_then(|id| uuid::Uuid::parse_str(id).ok()).map(|id| id.hyphenated().to_string())
}

/// A trimmed, non-empty string value.
fn text(value: Option<&Value>) -> Option<&str> {
    value.and_then(Value::as_str).map(str::trim).filter(|s| !s.is_empty())
}

/// The strings of a value that is one string, a comma-separated string or a list of strings.
fn strings(value: Option<&Value>) -> impl Iterator<Item = &str> {
    let list: Vec<&str> = match value {
        Some(Value::String(s)) => s.split([',', ';']).collect(),
        Some(Value::Array(items)) => items.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    list.into_iter().map(str::trim).filter(|s| !s.is_empty())
}

/// Whether `s` looks like an e-mail address.
fn is_email(s: &str) -> bool {
    let Some((user, host)) = s.split_once('@') else { return false };
    !user.is_empty() && host.contains('.') && !s.contains(char::is_whitespace) && !host.starts_with('.')
}

/// A latitude or longitude within `±limit`, written as a number or a numeric string.
fn coordinate(value: Option<&Value>, limit: f64) -> Option<f64> {
    let number = match value? {
        Value::Number(n) => n.as_f64()?,
        Value::String(s) => s.trim().parse().ok()?,
        _ => return None,
    };
    (number.is_finite() && number.abs() <= limit).then_some(number)
}

/// `summary`, then the body as plain text, each paragraph of it kept (a blank line between).
fn description(item: &Value) -> Option<String> {
    let body = text(item.get("body")).map(|body| paragraphs(&crate::content::plain::markdown(body)));
    let parts: Vec<String> = text(item.get("summary"))
        .map(str::to_string)
        .into_iter()
        .chain(body)
        .filter(|p| !p.trim().is_empty())
        .collect();
    (!parts.is_empty()).then(|| parts.join("\n\n"))
}

/// Plain text of several lines as its paragraphs, each [`tidy`], separated by a blank line.
fn paragraphs(text: &str) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut current = String::new();
    for line in text.lines() {
        if line.trim().is_empty() {
            out.push(std::mem::take(&mut current));
        } else {
            current.push_str(line);
            current.push('\n');
        }
    }
    out.push(current);
    out.iter().map(|p| tidy(p)).filter(|p| !p.is_empty()).collect::<Vec<_>>().join("\n\n")
}

/// Plain text on one line: runs of white space as one space, none before punctuation (where
/// markup stood).
fn tidy(text: &str) -> String {
    let mut out = text.split_whitespace().collect::<Vec<_>>().join(" ");
    for mark in [".", ",", ";", ":", "!", "?", ")"] {
        out = out.replace(&format!(" {mark}"), mark);
    }
    out
}

/// `updated`, else `date`, as an RFC 3339 time.
fn last_modified(item: &Value) -> Option<String> {
    ["updated", "date"].iter().find_map(|key| Some(parse_content_date(text(item.get(*key))?).ok()?.rfc3339()))
}

/// The record's phone numbers: its phone keys (`phone`, `sms`, `*_phone`...) and those inside
/// `contact`, each once.
fn phones(item: &Value, page: &str, service_id: &str) -> Vec<Value> {
    let mut found: Vec<(String, String)> = Vec::new();
    let mut add = |key: &str, value: &Value| {
        let values: Vec<String> = match value {
            Value::String(s) => vec![s.clone()],
            Value::Number(n) => vec![n.to_string()],
            Value::Array(items) => items.iter().filter_map(|v| v.as_str().map(str::to_string)).collect(),
            _ => Vec::new(),
        };
        for number in values.iter().filter_map(|v| telephone(v)) {
            if !found.iter().any(|(k, n)| *n == number && *k == key) {
                found.push((key.to_string(), number));
            }
        }
    };
    for (key, value) in item.as_object().into_iter().flatten().filter(|(key, _)| is_phone_key(key)) {
        add(key, value);
    }
    for (key, value) in item.get("contact").and_then(Value::as_object).into_iter().flatten() {
        if is_phone_key(key) || !matches!(key.as_str(), "email" | "url" | "name" | "website") {
            add(&format!("contact_{key}"), value);
        }
    }
    found.into_iter().map(|(key, number)| phone(&key, &number, page, service_id)).collect()
}

/// One phone of a service.
fn phone(key: &str, number: &str, page: &str, service_id: &str) -> Value {
    let kind = match key {
        "sms" => "text",
        "whatsapp" => "cell",
        _ if key.ends_with("_whatsapp") => "cell",
        _ => "voice",
    };
    json!({
        "id": id_of(&format!("{page}#phone:{key}:{number}")),
        "service_id": service_id,
        "number": number,
        "type": kind,
        "description": key.replace('_', " "),
    })
}

/// The weekly schedules of `hours` (or `opening_hours`), where they read without doubt.
fn schedules(item: &Value, page: &str, service_id: &str) -> Vec<Value> {
    let Some(hours) = item.get("hours").or_else(|| item.get("opening_hours")) else { return Vec::new() };
    openings(hours)
        .into_iter()
        .enumerate()
        .map(|(n, opening)| {
            json!({
                "id": id_of(&format!("{page}#schedule:{n}")),
                "service_id": service_id,
                "freq": "WEEKLY",
                "wkst": "MO",
                "byday": opening.days.join(","),
                "opens_at": opening.opens_at,
                "closes_at": opening.closes_at,
                "description": opening.description,
            })
        })
        .collect()
}

/// The languages the service is offered in: `languages` as codes.
fn languages(item: &Value, page: &str, service_id: &str) -> Vec<Value> {
    let mut codes: Vec<&str> = strings(item.get("languages")).collect();
    codes.dedup();
    codes
        .into_iter()
        .map(|code| json!({"id": id_of(&format!("{page}#language:{code}")), "service_id": service_id, "code": code}))
        .collect()
}

/// The root document of the API.
pub fn root(site: &SiteConfig) -> Value {
    json!({
        "version": super::model::VERSION,
        "profile": super::model::PROFILE,
        "openapi_url": format!("{}/api/openapi.json", site.base()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::standards::hsds::Dataset;

    fn site() -> SiteConfig {
        let mut site = SiteConfig {
            title: "Amani".into(),
            base_url: "https://amani.example.org/".into(),
            ..SiteConfig::default()
        };
        site.contact.email = "editors@amani.example.org".into();
        site.description = "The camp's portal.".into();
        site.labels.insert("zone-b".into(), "Zone B".into());
        site.address.insert("addressLocality".into(), "Amani".into());
        site.address.insert("addressCountry".into(), "UG".into());
        site
    }

    /// Every HSDS item of the services `items`, as the data file holds them.
    fn dataset(items: &[Value], site: &SiteConfig) -> Dataset {
        serde_json::from_slice(&data_file(items, site, 0).bytes).expect("the data file is a dataset")
    }

    fn record(extra: Value) -> Value {
        let mut item = json!({"id": "desk", "title": "Legal aid desk", "slug": "desk", "url": "/services/desk"});
        if let (Value::Object(map), Value::Object(more)) = (&mut item, extra) {
            map.extend(more);
        }
        item
    }

    #[test]
    fn a_service_is_its_page_with_phones_hours_and_place() {
        let item = record(json!({
            "summary": "Advice.", "body": "Bring **papers**\nand a photo.\n\n## Fees\n\nNone.", "updated": "2026-11-15",
            "phone": "+256 700 000 104", "whatsapp": "+256 700 000 105", "sms": ["0700 000 107", "call us"],
            "contact": {"phone": "0700 000 106", "email": "desk@legal.example.org", "url": "https://x.example"},
            "hours": "Mon-Fri 09:00-16:00", "languages": "en, sw", "zone": "zone-b",
            "location": {"name": "Hall", "latitude": "-0.61", "longitude": 30.65},
            "category": "law", "tags": ["legal-aid", "Legal aid", 3],
        }));
        let data = dataset(&[item], &site());
        let service = &data.services[0];
        assert_eq!(service["id"], id_of("https://amani.example.org/services/desk"));
        assert_eq!(service["description"], "Advice.\n\nBring papers and a photo.\n\nFees\n\nNone.");
        assert_eq!(service["email"], "desk@legal.example.org");
        assert_eq!(service["last_modified"], "2026-11-15T00:00:00Z");
        let numbers: Vec<&str> =
            service["phones"].as_array().into_iter().flatten().filter_map(|p| p["number"].as_str()).collect();
        assert_eq!(numbers, ["+256700000104", "+256700000105", "0700000107", "0700000106"]);
        assert_eq!(service["schedules"][0]["byday"], "MO,TU,WE,TH,FR");
        assert_eq!(service["languages"][1]["code"], "sw");
        let location = &service["service_at_locations"][0]["location"];
        assert_eq!((location["latitude"].as_f64(), location["longitude"].as_f64()), (Some(-0.61), Some(30.65)));
        let address = &location["addresses"][0];
        assert_eq!(address["address_1"], "Zone B");
        assert_eq!((address["city"].as_str(), address["country"].as_str()), (Some("Amani"), Some("UG")), "the site's");
        assert_eq!(address["postal_code"], "", "unknown stays empty");
        assert_eq!(data.services[0]["schedules"][0]["opens_at"], "09:00:00");
        assert_eq!(service["attributes"].as_array().map(Vec::len), Some(2), "one term per slug");
        assert_eq!(data.taxonomy_terms.len(), 2);
        assert_eq!(data.service_at_locations[0]["service"]["id"], service["id"]);
        assert!(data.service_at_locations[0]["service"].get("service_at_locations").is_none());
    }

    #[test]
    fn the_organization_is_the_records_else_the_sites() {
        let own = record(json!({"organization": {"name": "Legal Aid Society", "url": "https://legal.example.org"}}));
        let named = record(json!({"url": "/services/b", "organization": "Legal Aid Society"}));
        let plain = record(json!({"url": "/services/c", "organization": ["odd"]}));
        let sites = record(json!({"url": "/services/d", "organization": "amani"}));
        let data = dataset(&[own, named, plain, sites], &site());
        let ids: Vec<&Value> = data.services.iter().map(|s| &s["organization_id"]).collect();
        assert_eq!(ids[0], &json!(id_of("https://legal.example.org")));
        assert_ne!(ids[1], ids[0], "a name alone is another organization than one with a website");
        assert_eq!(ids[2], &json!(id_of("https://amani.example.org/")));
        assert_eq!(ids[3], ids[2], "the site's own name is the site");
        let site_org = data.organizations.iter().find(|o| o["id"] == *ids[2]).cloned().unwrap_or_default();
        assert_eq!(site_org["name"], "Amani");
        assert_eq!(site_org["email"], "editors@amani.example.org");
        assert_eq!(site_org["description"], "The camp's portal.");
        assert_eq!(site_org["services"].as_array().map(Vec::len), Some(2));
        let mut configured = site();
        configured.organization = Some(json!({"name": "Camp Services", "email": "info@camp.example.org"}));
        let org = Organization::of_site(&configured);
        assert_eq!((org.name.as_str(), org.email.as_deref()), ("Camp Services", Some("info@camp.example.org")));
        configured.organization = Some(json!(7));
        assert_eq!(Organization::of_site(&configured).name, "Amani", "an odd setting falls back");
    }

    #[test]
    fn an_imported_service_keeps_its_hsds_ids() {
        let kept = "AC148810-D857-441C-9679-408F346DE14B";
        let organization = json!({"name": "Example Org", "hsds_id": "d9d5e0f5-d3ce-4f73-9a2f-4dd0ecc6c610"});
        let imported = record(json!({"hsds_id": kept, "organization": organization}));
        let other = record(json!({"url": "/services/b", "hsds_id": "42"}));
        let data = dataset(&[imported, other], &site());
        assert_eq!(data.services[0]["id"], kept.to_lowercase());
        assert_eq!(data.services[0]["organization_id"], "d9d5e0f5-d3ce-4f73-9a2f-4dd0ecc6c610");
        assert_eq!(data.services[1]["id"], id_of("https://amani.example.org/services/b"), "not a UUID: derived");
    }

    #[test]
    fn an_address_written_with_the_record_wins_over_the_sites() {
        let item =
            record(json!({"location": {"name": "Desk", "address": {"streetAddress": "Plot 4", "postalCode": "00100"},
            "city": "Kakuma", "country": "KE"}}));
        let data = dataset(&[item], &site());
        let address = &data.services[0]["service_at_locations"][0]["location"]["addresses"][0];
        assert_eq!(address["address_1"], "Plot 4");
        assert_eq!((address["city"].as_str(), address["country"].as_str()), (Some("Kakuma"), Some("KE")));
        assert_eq!(address["postal_code"], "00100");
    }

    #[test]
    fn odd_shapes_never_fail() {
        for extra in [
            json!({"title": 5, "location": "Market", "languages": {"en": true}, "hours": {"mon": 1}}),
            json!({"location": [1, 2], "phone": {"x": 1}, "contact": "call us", "updated": "soon", "tags": "a, b"}),
            json!({"location": {"latitude": 999, "longitude": "east"}, "zone": 4, "category": ["x", {"y": 1}]}),
        ] {
            let data = dataset(&[record(extra), json!("not a record")], &site());
            assert_eq!(data.services.len(), 1);
            assert_eq!(data.services[0]["status"], "active");
        }
    }

    #[test]
    fn the_data_file_is_the_dataset_as_serde_writes_it_and_keeps_the_first_items() {
        let mut items: Vec<Value> = (0..5)
            .map(|i| {
                let organization =
                    if i % 2 == 0 { json!("Legal Aid Society") } else { json!({"name": "Camp \"Clinic\""}) };
                let location = json!({"name": format!("Hall {i}"), "latitude": -0.61, "longitude": 30.65});
                record(json!({"url": format!("/services/s{i}"), "organization": organization, "location": location,
                    "tags": ["legal-aid", format!("t{i}")], "phone": "+256 700 000 104"}))
            })
            .collect();
        items.push(json!("not a record"));
        let file = data_file(&items, &site(), 2);
        let data: Dataset = serde_json::from_slice(&file.bytes).expect("the data file is a dataset");
        assert_eq!(serde_json::to_vec(&data).expect("json"), file.bytes);
        assert_eq!((data.services.len(), data.organizations.len(), data.service_at_locations.len()), (5, 2, 5));
        assert_eq!(data.organizations[1]["name"], "Camp \"Clinic\"");
        assert_eq!(data.organizations[1]["services"].as_array().map(Vec::len), Some(2));
        for (kind, total, first) in &file.kinds {
            assert_eq!(*total, data.items(*kind).len(), "{kind:?}");
            assert_eq!(first.as_slice(), &data.items(*kind)[..(*total).min(2)], "{kind:?}");
        }
        let empty = data_file(&[], &site(), 2);
        assert_eq!(serde_json::from_slice::<Dataset>(&empty.bytes).map(|d| d.services.len()).ok(), Some(0));
    }
}
