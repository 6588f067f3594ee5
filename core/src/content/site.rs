//! `site.yaml` (docs/content.md#site-yaml). Every key is known: an unknown one is an error, so typos never pass.

use serde::{Deserialize, Serialize};

use super::offline::OfflineSettings;

/// The site settings.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SiteConfig {
    /// The site's name.
    pub title: String,
    /// One or two sentences on what the site is.
    #[serde(default)]
    pub description: String,
    /// The public address, e.g. `https://portal.example.org` (no trailing slash needed).
    #[serde(default)]
    pub base_url: String,
    /// The content language (BCP 47), e.g. `en`.
    #[serde(default = "default_language")]
    pub language: String,
    /// The content license, e.g. `CC BY-SA 4.0`.
    #[serde(default)]
    pub license: String,
    /// How to reach the editors.
    #[serde(default)]
    pub contact: Contact,
    /// The news feed.
    #[serde(default)]
    pub rss: Rss,
    /// Where notification mails come from and go to.
    #[serde(default)]
    pub notifications: Notifications,
    /// The booking form and its choice lists; unset: the site takes no bookings (no form, no
    /// links to it, `/visit` and `POST /api/bookings` answer 404).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub booking: Option<Booking>,
    /// Third-party data sources of the proxies.
    #[serde(default)]
    pub upstreams: Upstreams,
    /// The main navigation; empty: the collections that have records (and the encyclopedia).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub menu: Vec<MenuItem>,
    /// How long listings are before they are paged.
    #[serde(default)]
    pub pagination: Pagination,
    /// The static pages of the JSON API.
    #[serde(default)]
    pub api: Api,
    /// What raw HTML in markdown may publish.
    #[serde(default)]
    pub markdown: Markdown,
    /// Front-matter keys a site keeps on purpose although they look like typos of known keys.
    #[serde(default)]
    pub front_matter: FrontMatter,
    /// How long caches may keep built files (`Cache-Control`).
    #[serde(default)]
    pub cache: CacheSettings,
    /// Who may call the MCP endpoint from a browser.
    #[serde(default)]
    pub mcp: Mcp,
    /// The picture a shared link to a page without one of its own shows (a path or an address).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image: Option<String>,
    /// The site's icon (a path or an address); unset: an icon of the title's initial.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub favicon: Option<String>,
    /// The colour a browser tints its bar with (`#0b5cad`); unset: the theme's accent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub theme_color: Option<String>,
    /// Reading offline: the web app manifest, the service worker and its budget (docs/offline.md).
    #[serde(default, skip_serializing_if = "OfflineSettings::is_default")]
    pub offline: OfflineSettings,
    /// The zone times are shown in: an offset from UTC (`+03:00`) or an IANA zone name
    /// (`Africa/Kampala`, its summer time kept); unset: each time in the offset it was written with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timezone: Option<String>,
    /// Where the site's place is, as schema.org `PostalAddress` properties (`addressLocality`,
    /// `addressRegion`, `addressCountry`...): the location of jobs that name none
    /// (docs/standards.md#json-ld).
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub address: std::collections::BTreeMap<String, String>,
    /// How slugs in front-matter values read on pages and in form choices (`zone-a: Zone A`).
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub labels: std::collections::BTreeMap<String, String>,
    /// Front-matter keys kept in the JSON but left off pages (names, or `*` at one end); unset:
    /// `moderated`, `spatial_id`, keys ending in `_id` and keys starting with `_`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hidden_fields: Option<Vec<String>>,
    /// How much mail the site may send.
    #[serde(default)]
    pub mail: MailSettings,
    /// Who provides the site's services, for the HSDS API (docs/standards.md#hsds): a name, or
    /// `{name, url, email, description}`; unset: the site's title and contact. Kept as written
    /// (any shape), so an odd one falls back rather than failing the build.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub organization: Option<serde_json::Value>,
    /// The git-based CMS editors use in a browser (docs/editing.md); unset: no `/admin` is built.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cms: Option<Cms>,
    /// How the search page ranks and when it shows the help page first.
    #[serde(default, skip_serializing_if = "SearchSettings::is_default")]
    pub search: SearchSettings,
    /// Records read from tables and exports rather than written one file each
    /// (docs/content.md#sources). Read at build time only, and never written out: the settings a
    /// build publishes (`/_portal/manifest.json`) leave them out, since a source's URL may carry
    /// a key (`?token=...`) that is the publisher's alone.
    #[serde(default, skip_serializing)]
    pub sources: Vec<DataSource>,
}

/// One `sources:` entry: the rows of a table or export as records of a collection
/// (docs/content.md#sources).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DataSource {
    /// The collection its records belong to.
    pub collection: String,
    /// The file, relative to the content folder (for `hsds`, also an HSDS API's base URL).
    pub from: String,
    /// `csv`, `tsv`, `xlsx`, `ods`, `json`, `jsonl`, `geojson` or `hsds`; unset: from `from`'s
    /// extension.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
    /// Front-matter field (dotted for a nested one: `contact.phone`) -> the column it is read from.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub map: std::collections::BTreeMap<String, String>,
    /// The column that gives each record's slug; unset: the slug comes from the title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The column whose text is the record's markdown body.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body: Option<String>,
}

/// `search:` the search page's settings (docs/content.md#search-settings).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SearchSettings {
    /// Words and phrases that show the help page first, besides the built-in ones
    /// (`crate::search::safety`): `word`, `stem*`, `two words`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub help_words: Vec<String>,
    /// Whether `help_words` replace the built-in vocabulary rather than extend it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub help_words_replace: bool,
    /// Groups of words that mean the same, one word each, besides the built-in ones
    /// (`crate::search::synonyms`): on the search page a word also finds the others of its groups.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub synonyms: Vec<Vec<String>>,
    /// Whether `synonyms` replace the built-in groups rather than extend them.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub synonyms_replace: bool,
    /// How much each collection's hits count against the others' when the page orders its
    /// sections (1 when not named; `docs` 0.2 unless named).
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub weights: std::collections::BTreeMap<String, f32>,
}

/// The weight of developer documentation unless `search.weights` names it: below every
/// residents' collection.
pub(crate) const DOCS_WEIGHT: f32 = 0.2;

impl SearchSettings {
    fn is_default(&self) -> bool {
        self == &SearchSettings::default()
    }

    /// The weight of `collection` (see [`SearchSettings::weights`]).
    pub fn weight(&self, collection: &str) -> f32 {
        match self.weights.get(collection) {
            Some(weight) if weight.is_finite() && *weight >= 0.0 => *weight,
            _ if collection == "docs" => DOCS_WEIGHT,
            _ => 1.0,
        }
    }
}

impl SiteConfig {
    /// How a slug in a value reads on pages and in form choices: site.yaml `labels`, else the
    /// interface text's `labels.<slug>`; `None` when neither names it.
    pub fn label<'a>(&'a self, slug: &str, strings: &'a crate::content::i18n::Strings) -> Option<&'a str> {
        let from_text = || strings.lookup("labels")?.get(slug)?.as_str();
        self.labels.get(slug).map(String::as_str).or_else(from_text)
    }

    /// A zone's name: the site's label of its slug (site.yaml `labels:`, else the interface text's),
    /// else the slug in words with its short codes in capitals (`zone-b` is "Zone B", `block-c12`
    /// "Block C12"). Text that is not a slug is shown as written.
    pub fn zone_name(&self, zone: &str, strings: &crate::content::i18n::Strings) -> String {
        if let Some(label) = self.label(zone, strings) {
            return label.to_string();
        }
        let slug_like =
            !zone.is_empty() && zone.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "-_".contains(c));
        if !slug_like {
            return zone.to_string();
        }
        let words: Vec<String> = zone
            .split(['-', '_'])
            .filter(|w| !w.is_empty())
            .enumerate()
            .map(|(i, word)| {
                let code = word.len() <= 2 && word.chars().any(|c| c.is_ascii_alphabetic())
                    || word.chars().any(|c| c.is_ascii_digit());
                let mut chars = word.chars();
                match chars.next() {
                    _ if code => word.to_ascii_uppercase(),
                    Some(first) if i == 0 => first.to_uppercase().chain(chars).collect(),
                    _ => word.to_string(),
                }
            })
            .collect();
        words.join(" ")
    }
}

/// `cms:` the browser editor (Sveltia CMS or Decap CMS) the build configures from the collections
/// (docs/editing.md#the-generated-configuration).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cms {
    /// Where the content's repository is hosted.
    #[serde(default)]
    pub backend: CmsBackend,
    /// The repository, `owner/name` (GitLab: `group/subgroup/name`).
    #[serde(default)]
    pub repo: String,
    /// The branch editors commit to.
    #[serde(default = "default_cms_branch")]
    pub branch: String,
    /// Which CMS `/admin` loads.
    #[serde(default)]
    pub app: CmsApp,
    /// The content folder's path from the repository's root (no leading `/`, no `..`).
    #[serde(default = "default_content_dir")]
    pub content_dir: String,
    /// Whether the CMS may use a local proxy (`npx decap-server`) when opened on localhost.
    #[serde(default = "default_true")]
    pub local_backend: bool,
    /// The API's address of a self-hosted GitLab or Gitea (`https://git.example.org/api/v1`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub api_root: Option<String>,
    /// The OAuth application id GitLab and Gitea sign in with (PKCE, no secret).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub app_id: Option<String>,
}

/// `site.yaml` `cache:` how long built files may be kept (the policy is
/// [`crate::http::cache_control`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CacheSettings {
    /// Seconds a built file is fresh.
    #[serde(default = "default_max_age")]
    pub max_age: u32,
    /// Seconds after that in which a cache may answer with the stale copy while it revalidates.
    #[serde(default = "default_stale_while_revalidate")]
    pub stale_while_revalidate: u32,
}

impl Default for CacheSettings {
    fn default() -> Self {
        CacheSettings { max_age: default_max_age(), stale_while_revalidate: default_stale_while_revalidate() }
    }
}

fn default_max_age() -> u32 {
    300
}

fn default_stale_while_revalidate() -> u32 {
    86_400
}

impl Default for Cms {
    fn default() -> Self {
        Cms {
            backend: CmsBackend::default(),
            repo: String::new(),
            branch: default_cms_branch(),
            app: CmsApp::default(),
            content_dir: default_content_dir(),
            local_backend: true,
            api_root: None,
            app_id: None,
        }
    }
}

/// `cms.backend`: the git host the CMS commits through.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CmsBackend {
    /// GitHub (sign-in through the site's own `/api/cms/auth`).
    #[default]
    Github,
    /// GitLab.
    Gitlab,
    /// Gitea or Forgejo.
    Gitea,
}

impl CmsBackend {
    /// The backend's name in the CMS configuration.
    pub fn name(self) -> &'static str {
        match self {
            CmsBackend::Github => "github",
            CmsBackend::Gitlab => "gitlab",
            CmsBackend::Gitea => "gitea",
        }
    }
}

/// `cms.app`: which CMS the admin page loads.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CmsApp {
    /// Sveltia CMS.
    #[default]
    Sveltia,
    /// Decap CMS 3.
    Decap,
}

fn default_cms_branch() -> String {
    "main".to_string()
}

fn default_content_dir() -> String {
    "content".to_string()
}

fn default_true() -> bool {
    true
}

/// `mail:` the site-wide cap on outgoing mail (see `crate::forms::mail_quota`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MailSettings {
    /// Mails of any kind sent per hour at most; a submission past it is refused (429).
    #[serde(default = "default_max_mail_per_hour")]
    pub max_per_hour: u32,
}

impl Default for MailSettings {
    fn default() -> Self {
        MailSettings { max_per_hour: default_max_mail_per_hour() }
    }
}

fn default_max_mail_per_hour() -> u32 {
    200
}

/// `mcp:` the MCP endpoint's settings.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Mcp {
    /// Web origins (`https://app.example.org`) besides the site's own whose pages may call `/mcp`;
    /// any other `Origin` is refused with 403 (DNS-rebinding protection).
    #[serde(default)]
    pub allowed_origins: Vec<String>,
}

/// `front_matter:`
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FrontMatter {
    /// Keys that are not typos (e.g. `titles`, next to `title`).
    #[serde(default)]
    pub allow: Vec<String>,
}

/// `markdown:` raw HTML in bodies is sanitized (no scripts, event handlers, `javascript:` or
/// `data:` links, iframes only from `iframe_hosts`) unless `unsafe_html` opts out.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Markdown {
    /// Publish raw HTML as written (a warning at every build).
    #[serde(default)]
    pub unsafe_html: bool,
    /// Hosts whose pages may be embedded with `<iframe>` (e.g. `www.youtube-nocookie.com`).
    #[serde(default)]
    pub iframe_hosts: Vec<String>,
}

/// One link of `menu:`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MenuItem {
    /// The link text.
    pub title: String,
    /// Where it goes: a site path (`/news`) or an absolute URL.
    pub url: String,
}

/// `pagination:`
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pagination {
    /// Items on one page of a listing (at least 1); longer listings continue on `<listing>/page/<n>`.
    #[serde(default = "default_page_size")]
    pub page_size: usize,
}

impl Default for Pagination {
    fn default() -> Self {
        Pagination { page_size: default_page_size() }
    }
}

/// Items per listing page when `site.yaml` does not say (listings are paged past 20 items).
pub const DEFAULT_PAGE_SIZE: usize = 20;

fn default_page_size() -> usize {
    DEFAULT_PAGE_SIZE
}

/// `api:` the static pages of the collection listings (`/api/<collection>/_page/<n>`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Api {
    /// Records per static page.
    #[serde(default = "default_api_page_size")]
    pub page_size: usize,
}

impl Default for Api {
    fn default() -> Self {
        Api { page_size: default_api_page_size() }
    }
}

fn default_api_page_size() -> usize {
    100
}

fn default_language() -> String {
    "en".to_string()
}

/// `contact:`
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Contact {
    /// The editors' address.
    #[serde(default)]
    pub email: String,
    /// The contact page.
    #[serde(default)]
    pub url: String,
}

/// `rss:`
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rss {
    /// How many news items the feed carries.
    #[serde(default = "default_rss_items")]
    pub items: usize,
}

impl Default for Rss {
    fn default() -> Self {
        Rss { items: default_rss_items() }
    }
}

fn default_rss_items() -> usize {
    20
}

/// `notifications:`
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Notifications {
    /// The sender of every mail.
    #[serde(default)]
    pub from: String,
    /// Who hears of a new community voice.
    #[serde(default)]
    pub voices_to: String,
    /// Who gets a copy of each booking.
    #[serde(default)]
    pub bookings_to: String,
}

/// `booking:` the choice lists of the booking form (keys as the API spells the fields).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Booking {
    /// Allowed `groupSize` values.
    #[serde(default, rename = "groupSize")]
    pub group_size: Vec<String>,
    /// Allowed `tourType` values.
    #[serde(default, rename = "tourType")]
    pub tour_type: Vec<String>,
    /// Allowed `meetingPoint` values.
    #[serde(default, rename = "meetingPoint")]
    pub meeting_point: Vec<String>,
    /// Allowed `paymentMethod` values.
    #[serde(default, rename = "paymentMethod")]
    pub payment_method: Vec<String>,
    /// Where pages link the booking form: page URLs (`/`, `/events`) and `footer` (every page's
    /// footer); unset: the home page and the footer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub link_from: Option<Vec<String>>,
}

/// The choice lists of a site without `booking:` (all empty).
static NO_BOOKING: Booking = Booking {
    group_size: Vec::new(),
    tour_type: Vec::new(),
    meeting_point: Vec::new(),
    payment_method: Vec::new(),
    link_from: None,
};

impl SiteConfig {
    /// The booking form's settings, empty when the site takes no bookings.
    pub fn booking_lists(&self) -> &Booking {
        self.booking.as_ref().unwrap_or(&NO_BOOKING)
    }

    /// Where pages link the booking form: nowhere when the site takes no bookings.
    pub fn booking_links(&self) -> Vec<String> {
        self.booking.as_ref().map(Booking::linked_from).unwrap_or_default()
    }
}

impl Booking {
    /// Where pages link the booking form (see [`Booking::link_from`]).
    pub fn linked_from(&self) -> Vec<String> {
        self.link_from.clone().unwrap_or_else(|| vec!["/".to_string(), "footer".to_string()])
    }
}

/// `upstreams:` every URL may be absent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Upstreams {
    /// An Open-Meteo forecast URL.
    #[serde(default)]
    pub weather: Option<String>,
    /// An RSS 2.0 or Atom feed with CAP fields.
    #[serde(default)]
    pub weather_alerts: Option<String>,
    /// A URL template with `{ip}`.
    #[serde(default)]
    pub geolocation: Option<String>,
    /// Per-request timeout, in milliseconds.
    #[serde(default = "default_timeout_ms")]
    pub timeout_ms: u64,
    /// How long an upstream answer is reused; 0 turns the cache off.
    #[serde(default = "default_cache_seconds")]
    pub cache_seconds: u64,
}

impl Default for Upstreams {
    fn default() -> Self {
        Upstreams {
            weather: None,
            weather_alerts: None,
            geolocation: None,
            timeout_ms: default_timeout_ms(),
            cache_seconds: default_cache_seconds(),
        }
    }
}

fn default_timeout_ms() -> u64 {
    3000
}

fn default_cache_seconds() -> u64 {
    300
}

impl SiteConfig {
    /// The base URL without a trailing slash, for building absolute links.
    pub fn base(&self) -> &str {
        self.base_url.trim_end_matches('/')
    }
}
