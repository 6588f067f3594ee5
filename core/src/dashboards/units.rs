//! What a number of a snapshot measures (docs/content.md#units): a `unit` the data gives, a
//! `currency` beside amounts of money, or a name that says it (`percentage_funded`, `budget_usd`).
//! Numbers of different units are never drawn on one scale, and each is written with its unit.

/// Codes of currencies a key may end with (`required_usd`), lower case.
const CURRENCIES: &[&str] = &[
    "usd", "eur", "gbp", "chf", "ugx", "kes", "tzs", "rwf", "bif", "cdf", "ssp", "sdg", "etb", "sos", "djf", "ern",
    "xaf", "xof", "ngn", "zar", "mwk", "zmw", "mzn", "inr", "pkr", "afn", "bdt", "jod", "lbp", "syp", "try", "yer",
];

/// Words of a key that name an amount of money, in the `currency` beside them.
const MONEY: &[&str] = &[
    "amount",
    "budget",
    "cost",
    "costs",
    "price",
    "required",
    "requirement",
    "requirements",
    "funded",
    "funding",
    "gap",
    "pledged",
    "received",
    "spent",
    "expenditure",
    "income",
    "salary",
    "fee",
    "fees",
    "contribution",
    "contributions",
    "appeal",
    "revenue",
    "paid",
];

/// Words of a key that name a ratio of other numbers (an average household size, a share): such
/// a number is never drawn on the scale of the counts beside it, nor of another ratio.
const RATIO: &[&str] = &["average", "avg", "mean", "median", "share", "ratio", "rate", "per", "size", "index"];

/// The unit of a number named `key`: `%` for a percentage, a currency's code (`USD`) for an
/// amount of money (from the key's ending, or `currency` for a key naming money), else `None`.
pub fn of_key(key: &str, currency: Option<&str>) -> Option<String> {
    let key = key.to_ascii_lowercase().replace('-', "_");
    let words: Vec<&str> = key.split('_').filter(|w| !w.is_empty()).collect();
    let percent = |w: &&str| matches!(*w, "percentage" | "percent" | "pct" | "pc");
    if words.first().is_some_and(percent) || words.last().is_some_and(percent) {
        return Some("%".into());
    }
    if let Some(code) = words.last().filter(|w| words.len() > 1 && CURRENCIES.contains(w)) {
        return Some(code.to_ascii_uppercase());
    }
    let currency = currency.map(str::trim).filter(|c| !c.is_empty())?;
    words.iter().any(|w| MONEY.contains(w)).then(|| currency.to_string())
}

/// What a number named `key` of unit `unit` may share a scale with: numbers of the same unit; a
/// ratio (`average_household_size`) only with itself; numbers of no unit with each other.
pub fn scale_of(key: &str, unit: Option<&str>) -> String {
    if let Some(unit) = unit {
        return format!("unit:{unit}");
    }
    let key = key.to_ascii_lowercase().replace('-', "_");
    if key.split('_').any(|w| RATIO.contains(&w)) {
        return format!("ratio:{key}");
    }
    String::new()
}

/// `number` (written as the language writes numbers) with `unit`: `37%`, `USD 12,500,000`
/// (a currency's code before the amount), else `420 people`.
pub fn write(number: &str, unit: Option<&str>) -> String {
    match unit.map(str::trim).filter(|u| !u.is_empty()) {
        None => number.to_string(),
        Some("%") => format!("{number}%"),
        Some(code) if code.len() == 3 && code.chars().all(|c| c.is_ascii_uppercase()) => format!("{code} {number}"),
        Some(unit) => format!("{number} {unit}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_come_from_names_and_the_currency_beside_them() {
        assert_eq!(of_key("percentage_funded", None).as_deref(), Some("%"));
        assert_eq!(of_key("funded_pct", None).as_deref(), Some("%"));
        assert_eq!(of_key("budget_usd", None).as_deref(), Some("USD"));
        assert_eq!(of_key("required", Some("USD")).as_deref(), Some("USD"));
        assert_eq!(of_key("required", None), None);
        assert_eq!(of_key("individuals", Some("USD")), None, "a count is not money");
        assert_eq!(of_key("usd", None), None);
    }

    #[test]
    fn ratios_and_counts_never_share_a_scale() {
        assert_ne!(scale_of("average_household_size", None), scale_of("individuals", None));
        assert_eq!(scale_of("individuals", None), scale_of("households", None));
        assert_ne!(scale_of("required", Some("USD")), scale_of("percentage_funded", Some("%")));
    }

    #[test]
    fn a_number_is_written_with_its_unit() {
        assert_eq!(write("37", Some("%")), "37%");
        assert_eq!(write("12,500,000", Some("USD")), "USD 12,500,000");
        assert_eq!(write("420", Some("people")), "420 people");
        assert_eq!(write("4.1", None), "4.1");
    }
}
