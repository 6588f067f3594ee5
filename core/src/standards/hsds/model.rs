//! The HSDS API's kinds of items, their stable ids and the one data file the build writes them to
//! (docs/standards.md#hsds).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The HSDS version the API answers in.
pub const VERSION: &str = "3.0";

/// Where the build writes every HSDS item, for the handlers to page, filter and find them.
pub const DATA_FILE: &str = "_portal/hsds.json";

/// The API's root path.
pub const ROOT: &str = "/api/hsds";

/// The profile the API follows: HSDS 3.0 with no extensions.
pub const PROFILE: &str = "https://docs.openreferral.org/en/v3.0/hsds/overview.html";

/// The stable id of whatever lives at `url`: a UUID v5 of it in the URL namespace, the same on
/// every build of the same site.
pub fn id_of(url: &str) -> String {
    uuid::Uuid::new_v5(&uuid::Uuid::NAMESPACE_URL, url.as_bytes()).to_string()
}

/// The kinds of items the API lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `/services`: one per published record of the `services` collection.
    Services,
    /// `/organizations`: who provides them.
    Organizations,
    /// `/service_at_locations`: a service at its place.
    ServiceAtLocations,
    /// `/taxonomies`: the site's tags and categories.
    Taxonomies,
    /// `/taxonomy_terms`: each tag and category.
    TaxonomyTerms,
}

impl Kind {
    /// Every kind, in the order the root and the docs list them.
    pub const ALL: [Kind; 5] =
        [Kind::Services, Kind::Organizations, Kind::ServiceAtLocations, Kind::Taxonomies, Kind::TaxonomyTerms];

    /// Its path segment under [`ROOT`].
    pub fn name(self) -> &'static str {
        match self {
            Kind::Services => "services",
            Kind::Organizations => "organizations",
            Kind::ServiceAtLocations => "service_at_locations",
            Kind::Taxonomies => "taxonomies",
            Kind::TaxonomyTerms => "taxonomy_terms",
        }
    }

    /// One item of it, in words (`service`, `taxonomy`).
    pub fn singular(self) -> &'static str {
        match self {
            Kind::Services => "service",
            Kind::Organizations => "organization",
            Kind::ServiceAtLocations => "service_at_location",
            Kind::Taxonomies => "taxonomy",
            Kind::TaxonomyTerms => "taxonomy_term",
        }
    }

    /// The kind a path segment names.
    pub fn named(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|kind| kind.name() == name)
    }

    /// The path of its list.
    pub fn list_path(self) -> String {
        format!("{ROOT}/{}", self.name())
    }
}

/// Every HSDS item of a build, fully nested, in the API's order: the data file's contents.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Dataset {
    /// Services.
    pub services: Vec<Value>,
    /// Organizations, with their services in list form.
    pub organizations: Vec<Value>,
    /// Services at locations.
    pub service_at_locations: Vec<Value>,
    /// The two taxonomies.
    pub taxonomies: Vec<Value>,
    /// Their terms.
    pub taxonomy_terms: Vec<Value>,
}

impl Dataset {
    /// The items of `kind`, fully nested.
    pub fn items(&self, kind: Kind) -> &[Value] {
        match kind {
            Kind::Services => &self.services,
            Kind::Organizations => &self.organizations,
            Kind::ServiceAtLocations => &self.service_at_locations,
            Kind::Taxonomies => &self.taxonomies,
            Kind::TaxonomyTerms => &self.taxonomy_terms,
        }
    }

    /// The item of `kind` with `id`, fully nested.
    pub fn find(&self, kind: Kind, id: &str) -> Option<&Value> {
        self.items(kind).iter().find(|item| item["id"] == id)
    }
}

/// The one-to-one fields of a service, its list form (HSDS `service_list`).
const SERVICE_LIST: &[&str] = &[
    "id",
    "organization_id",
    "program_id",
    "name",
    "alternate_name",
    "description",
    "url",
    "email",
    "status",
    "interpretation_services",
    "application_process",
    "fees_description",
    "wait_time",
    "fees",
    "accreditations",
    "eligibility_description",
    "minimum_age",
    "maximum_age",
    "assured_date",
    "assurer_email",
    "licenses",
    "alert",
    "last_modified",
];

/// The one-to-one fields of an organization (HSDS `organization_list`).
const ORGANIZATION_LIST: &[&str] = &[
    "id",
    "name",
    "alternate_name",
    "description",
    "email",
    "website",
    "tax_status",
    "tax_id",
    "year_incorporated",
    "legal_status",
    "logo",
    "uri",
    "parent_organization_id",
];

/// The one-to-one fields of a location.
const LOCATION_LIST: &[&str] = &[
    "id",
    "location_type",
    "url",
    "organization_id",
    "name",
    "alternate_name",
    "description",
    "transportation",
    "latitude",
    "longitude",
    "external_identifier",
    "external_identifier_type",
];

/// The members of `item` named in `keys`.
fn only(item: &Value, keys: &[&str]) -> Map<String, Value> {
    keys.iter().filter_map(|key| Some((key.to_string(), item.get(*key)?.clone()))).collect()
}

/// A service in list form: its one-to-one fields and its organization's.
pub fn service_list_item(service: &Value) -> Value {
    let mut item = only(service, SERVICE_LIST);
    if let Some(organization) = service.get("organization") {
        item.insert("organization".into(), organization_list_item(organization));
    }
    Value::Object(item)
}

/// An organization in list form.
pub fn organization_list_item(organization: &Value) -> Value {
    Value::Object(only(organization, ORGANIZATION_LIST))
}

/// A service at a location in list form: its location's and its service's one-to-one fields.
pub fn service_at_location_list_item(item: &Value) -> Value {
    let mut out = only(item, &["id", "service_id", "location_id", "description"]);
    if let Some(location) = item.get("location") {
        out.insert("location".into(), Value::Object(only(location, LOCATION_LIST)));
    }
    if let Some(service) = item.get("service") {
        out.insert("service".into(), service_list_item(service));
    }
    Value::Object(out)
}

/// An item of `kind` as its list shows it.
pub fn list_item(kind: Kind, item: &Value) -> Value {
    match kind {
        Kind::Services => service_list_item(item),
        Kind::Organizations => organization_list_item(item),
        Kind::ServiceAtLocations => service_at_location_list_item(item),
        Kind::Taxonomies | Kind::TaxonomyTerms => item.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn ids_are_uuid_v5_of_the_url() {
        // The RFC 4122 namespace example: python's uuid.uuid5(uuid.NAMESPACE_URL, ...) agrees.
        let id = id_of("https://fixture.example.org/services/legal-aid-desk");
        assert_eq!(id, id_of("https://fixture.example.org/services/legal-aid-desk"));
        assert_eq!(id.len(), 36);
        assert_eq!(&id[14..15], "5", "a version 5 UUID: {id}");
        assert_ne!(id, id_of("https://fixture.example.org/services/cafe-amani"));
        assert_eq!(id_of("http://python.org/"), "4c565f0d-3f5a-5890-b41b-20cf47701c5e");
    }

    #[test]
    fn list_forms_keep_one_to_one_fields() {
        let service = json!({"id": "a", "name": "n", "status": "active", "phones": [],
            "organization": {"id": "o", "name": "O", "description": "d", "phones": []}});
        assert_eq!(
            service_list_item(&service),
            json!({"id": "a", "name": "n", "status": "active", "organization": {"id": "o", "name": "O", "description": "d"}})
        );
        assert_eq!(Kind::named("service_at_locations"), Some(Kind::ServiceAtLocations));
        assert_eq!(Kind::named("nope"), None);
    }
}
