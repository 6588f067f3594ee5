//! What readers send the site: the two forms' fields, the validation of their JSON actions and
//! HTML forms, the forms' markup, the notification mails and their quotas, the submission
//! store with its outbox, and the idempotency keys that keep a retried submission single.

mod definitions;
pub mod idempotency;
pub mod ids;
pub mod mail;
pub mod mail_quota;
pub mod markup;
pub mod outbox;
pub mod validate;

pub use definitions::*;
