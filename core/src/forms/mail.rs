//! Notification mails rendered from the build's templates (`templates/mail/`, copied by the build
//! to `_portal/mail/`): `{{field}}` placeholders, HTML-escaped in `.html` templates.
//!
//! A text template starts with a `Subject: ...` line and a blank line; the rest is the body. Core
//! renders mails at request time so they are stored with the submission; delivering them is the
//! platform's outbox's job.

use crate::content::SiteConfig;
use crate::http::problem::Problem;
use crate::platform::{internal, Mail, Platform};

/// Where the build puts the mail templates, relative to the build folder.
pub const MAIL_DIR: &str = "_portal/mail";

/// The mail templates, by stem; each has a `.txt` and a `.html` file.
pub const TEMPLATES: [&str; 3] = ["voice-editors", "booking-visitor", "booking-copy"];

/// Replaces each `{{name}}` with its value (unknown names become empty), escaping for HTML when asked.
pub fn render(template: &str, values: &[(&str, &str)], html: bool) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let Some(end) = after.find("}}") else {
            out.push_str(&rest[start..]);
            return out;
        };
        let name = after[..end].trim();
        let value = values.iter().find(|(n, _)| *n == name).map_or("", |(_, v)| v);
        if html {
            out.push_str(&crate::content::text::escape(value));
        } else {
            out.push_str(value);
        }
        rest = &after[end + 2..];
    }
    out.push_str(rest);
    out
}

/// Splits a rendered text template into its subject (line breaks flattened) and body.
pub fn split_subject(rendered: &str) -> (String, String) {
    let (first, body) = rendered.split_once('\n').unwrap_or((rendered, ""));
    match first.trim_end_matches('\r').strip_prefix("Subject:") {
        Some(subject) => {
            let subject = subject.trim().replace(['\r', '\n'], " ");
            (subject, body.trim_start_matches(['\r', '\n']).to_string())
        }
        None => (String::new(), rendered.to_string()),
    }
}

/// Who a mail goes to and who replies reach.
#[derive(Debug, Clone)]
pub struct Envelope {
    /// The sender.
    pub from: String,
    /// The recipients.
    pub to: Vec<String>,
    /// The reply address, if any.
    pub reply_to: Option<String>,
}

/// Renders the mail `template` (a stem of [`TEMPLATES`]) for `values`. 500 when the build lacks it.
pub async fn compose<P: Platform>(
    platform: &P,
    template: &str,
    envelope: Envelope,
    values: &[(&str, &str)],
) -> Result<Mail, Problem> {
    let text = read_template(platform, &format!("{MAIL_DIR}/{template}.txt")).await?;
    let html = read_template(platform, &format!("{MAIL_DIR}/{template}.html")).await?;
    let (subject, text) = split_subject(&render(&text, values, false));
    Ok(Mail {
        from: envelope.from,
        to: envelope.to,
        reply_to: envelope.reply_to,
        subject,
        text,
        html: Some(render(&html, values, true)),
    })
}

async fn read_template<P: Platform>(platform: &P, file: &str) -> Result<String, Problem> {
    match platform.read_file(file).await {
        Ok(Some(bytes)) => String::from_utf8(bytes.to_vec()).map_err(internal(platform, file)),
        Ok(None) => Err(internal(platform, file)("the mail template is missing from the build")),
        Err(e) => Err(internal(platform, file)(e)),
    }
}

/// The sender of the site's mails: `notifications.from`, else the contact address, else a local one.
pub fn sender(site: &SiteConfig) -> String {
    [&site.notifications.from, &site.contact.email]
        .into_iter()
        .find(|a| !a.trim().is_empty())
        .map_or_else(|| "portal@localhost".to_string(), |a| a.trim().to_string())
}

/// The first non-empty address of `candidates`, if any.
pub fn first_address(candidates: &[&str]) -> Option<String> {
    candidates.iter().map(|a| a.trim()).find(|a| !a.is_empty()).map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_filled_and_escaped_in_html() {
        let values = [("title", "<b>Hi</b> & \"you\""), ("author", "Ana")];
        assert_eq!(render("{{ title }} by {{author}}{{none}}", &values, false), "<b>Hi</b> & \"you\" by Ana");
        assert_eq!(render("<p>{{title}}</p>", &values, true), "<p>&lt;b&gt;Hi&lt;/b&gt; &amp; &quot;you&quot;</p>");
        assert_eq!(render("open {{ never closed", &values, false), "open {{ never closed");
    }

    #[test]
    fn the_first_line_is_the_subject() {
        let (subject, body) = split_subject("Subject: New voice\r\n\r\nHello\n");
        assert_eq!(subject, "New voice");
        assert_eq!(body, "Hello\n");
        let (subject, body) = split_subject("no subject here\nbody");
        assert_eq!((subject.as_str(), body.as_str()), ("", "no subject here\nbody"));
    }
}
