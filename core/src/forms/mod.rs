//! What readers send the site: the two forms' fields, the validation of their JSON actions and
//! HTML forms, the forms' markup, the notification mails and their quotas, and the submission
//! store with its outbox.

mod definitions;
pub mod ids;
pub mod mail;
pub mod mail_quota;
pub mod markup;
pub mod outbox;
pub mod validate;

pub use definitions::*;
