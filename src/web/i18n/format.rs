//! Dates, times and numbers as each language writes them (ICU4X with the CLDR data compiled
//! in): `14.11.2023, 22:13 UTC` in German, `Nov 14, 2023, 10:13 PM UTC` in English; `1,234`,
//! `1.234`, `1 234`, `1234` (Spanish groups from five digits on).
//!
//! Times are shown in UTC, said so after each: the service does not know where its reader is.

use crate::domain::Language;
use icu_datetime::fieldsets::YMDT;
use icu_datetime::input::{DateTime, UtcOffset, ZonedDateTime};
use icu_datetime::options::TimePrecision;
use icu_datetime::DateTimeFormatter;
use icu_decimal::input::Decimal;
use icu_decimal::DecimalFormatter;
use icu_locale_core::Locale;

/// One formatter per language, built at a thread's first use (ICU4X's formatters are not
/// shared between threads); a language whose formatter cannot be built (it always can: the
/// data is compiled in) falls back to plain digits.
struct Formatters {
    dates: Vec<(Language, DateTimeFormatter<YMDT>)>,
    numbers: Vec<(Language, DecimalFormatter)>,
}

thread_local! {
    static FORMATTERS: Formatters = build();
}

fn build() -> Formatters {
    {
        let mut dates = Vec::new();
        let mut numbers = Vec::new();
        for language in Language::ALL {
            let Ok(locale) = language.code().parse::<Locale>() else {
                continue;
            };
            let fields = YMDT::medium().with_time_precision(TimePrecision::Minute);
            match DateTimeFormatter::try_new((&locale).into(), fields) {
                Ok(f) => dates.push((language, f)),
                Err(e) => tracing::error!(%language, error = %e, "no date format"),
            }
            match DecimalFormatter::try_new((&locale).into(), Default::default()) {
                Ok(f) => numbers.push((language, f)),
                Err(e) => tracing::error!(%language, error = %e, "no number format"),
            }
        }
        Formatters { dates, numbers }
    }
}

/// A Unix time (seconds) as a date and time to the minute, in UTC, as `language` writes it.
pub fn date_time(language: Language, unix_secs: u64) -> String {
    let millis = i64::try_from(unix_secs)
        .unwrap_or(i64::MAX / 1000)
        .saturating_mul(1000);
    let zoned = ZonedDateTime::from_epoch_milliseconds_and_utc_offset(millis, UtcOffset::zero());
    let at = DateTime {
        date: zoned.date,
        time: zoned.time,
    };
    FORMATTERS.with(|all| match all.dates.iter().find(|(l, _)| *l == language) {
        Some((_, f)) => format!("{} UTC", f.format(&at)),
        None => format!("{unix_secs} UTC"),
    })
}

/// A whole number as `language` writes it (digit grouping).
pub fn integer(language: Language, n: i64) -> String {
    FORMATTERS.with(
        |all| match all.numbers.iter().find(|(l, _)| *l == language) {
            Some((_, f)) => f.format(&Decimal::from(n)).to_string(),
            None => n.to_string(),
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_read_as_each_language_writes_them_in_utc() {
        let at = 1_700_000_000; // 2023-11-14 22:13:20 UTC
        assert_eq!(date_time(Language::De, at), "14.11.2023, 22:13 UTC");
        let en = date_time(Language::En, at);
        assert!(
            en.starts_with("Nov 14, 2023") && en.contains("10:13") && en.ends_with("PM UTC"),
            "{en}"
        );
        let fr = date_time(Language::Fr, at);
        assert!(
            fr.starts_with("14 nov. 2023") && fr.contains("22:13"),
            "{fr}"
        );
        let es = date_time(Language::Es, at);
        assert!(
            es.starts_with("14 nov 2023") && es.contains("22:13"),
            "{es}"
        );
    }

    #[test]
    fn numbers_are_grouped_as_each_language_groups_them() {
        assert_eq!(integer(Language::En, 1_234_567), "1,234,567");
        assert_eq!(integer(Language::De, 1_234_567), "1.234.567");
        assert_eq!(integer(Language::Fr, 1_234_567), "1\u{202f}234\u{202f}567");
        assert_eq!(integer(Language::Es, 1_234), "1234");
        assert_eq!(integer(Language::Es, 12_345), "12.345");
        assert_eq!(integer(Language::En, 7), "7");
    }
}
