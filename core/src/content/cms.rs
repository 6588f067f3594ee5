//! Where the browser editor lives and which release of it runs (docs/editing.md#security): the
//! page's path, which the sign-in's popup answers alone, and the pinned CMS releases, which the
//! build's page loads and the page's Content-Security-Policy allows, and nothing else of the CDN.

use super::CmsApp;

/// The CMS's page (its file is also answered at `/admin.html`, see [`ADMIN_PAGE_PATHS`]).
pub const ADMIN_PAGE: &str = "/admin";

/// Every path a browser may show the CMS's page at: its URL and its built file's own path.
pub const ADMIN_PAGE_PATHS: [&str; 2] = [ADMIN_PAGE, "/admin.html"];

/// Where both CMSs document loading their script from.
pub const CDN: &str = "https://unpkg.com";

/// A release of a CMS as the page loads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Release {
    /// The npm package.
    pub package: &'static str,
    /// The exact version (the tests load the same one from npm, tests/cms/packs.txt).
    pub version: &'static str,
    /// The script's path inside the package.
    pub script: &'static str,
    /// The script's Subresource Integrity hash (of the file in the npm package).
    pub integrity: &'static str,
    /// Files of the CDN the CMS reads besides its folder, as paths: Sveltia CMS asks for its
    /// package's newest `package.json` to say when an update is out. The page's policy lets it
    /// fetch exactly these (a source without a trailing `/` matches that one path).
    pub reads: &'static [&'static str],
}

impl Release {
    /// The pinned package's folder on the CDN, ending in `/`: what the page's policy allows (a
    /// source ending in `/` matches every file under it, so the chunks Decap CMS loads later too).
    pub fn folder(&self) -> String {
        format!("{CDN}/{}@{}/", self.package, self.version)
    }

    /// The URLs of [`Release::reads`].
    pub fn reads(&self) -> impl Iterator<Item = String> {
        self.reads.iter().map(|path| format!("{CDN}{path}"))
    }

    /// The script's URL on the CDN.
    pub fn url(&self) -> String {
        format!("{}{}", self.folder(), self.script)
    }
}

/// Sveltia CMS, the default.
pub const SVELTIA: Release = Release {
    package: "@sveltia/cms",
    version: "0.221.1",
    script: "dist/sveltia-cms.js",
    integrity: "sha384-JQ+XsKx/UzwdTiNnFStza3XtqqQoVtyNPApkfvwlzZDfhe7giE9CnfQrpHqgv3k6",
    reads: &["/@sveltia/cms/package.json"],
};

/// Decap CMS 3.
pub const DECAP: Release = Release {
    package: "decap-cms",
    version: "3.16.3",
    script: "dist/decap-cms.js",
    integrity: "sha384-A/Gdn928CNLufmnGWGs9RM4Q9o8bSNLeJERqBFrBjwzL7FRpoLT3MPF8Tl0+Wd2p",
    reads: &[],
};

/// The release `app` loads.
pub fn release(app: CmsApp) -> Release {
    match app {
        CmsApp::Sveltia => SVELTIA,
        CmsApp::Decap => DECAP,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_release_lives_in_its_pinned_folder_of_the_cdn() {
        assert_eq!(SVELTIA.folder(), "https://unpkg.com/@sveltia/cms@0.221.1/");
        assert_eq!(DECAP.url(), "https://unpkg.com/decap-cms@3.16.3/dist/decap-cms.js");
        assert!(ADMIN_PAGE_PATHS.contains(&ADMIN_PAGE));
    }
}
