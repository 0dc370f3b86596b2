/// A point in time as Realm stores it: whole seconds since 1970-01-01T00:00:00Z plus nanoseconds.
///
/// Both parts carry the sign of the instant (both ≤ 0 or both ≥ 0), so half a second before the
/// epoch is `(0, -500_000_000)`, never `(-1, 500_000_000)`. That invariant makes the natural
/// lexicographic order on `(seconds, nanoseconds)` the order in time.
///
/// ```swift
/// let t = try Timestamp(iso8601: "2023-05-01T12:30:00.25Z")
/// t.seconds       // 1682944200
/// t.nanoseconds   // 250000000
/// t.iso8601       // "2023-05-01T12:30:00.25Z"
/// ```
public struct Timestamp: Hashable, Comparable, Sendable {
    /// Whole seconds since the epoch, with the sign of the instant.
    public let seconds: Int64
    /// Nanoseconds within the second, `-999_999_999...999_999_999`, with the sign of the instant.
    public let nanoseconds: Int32

    /// Builds a timestamp, or returns `nil` if the parts disagree in sign or `nanoseconds` is out of range.
    public init?(seconds: Int64, nanoseconds: Int32) {
        guard abs(Int(nanoseconds)) < 1_000_000_000 else { return nil }
        guard !(seconds > 0 && nanoseconds < 0), !(seconds < 0 && nanoseconds > 0) else { return nil }
        // The instant must be representable as floored seconds too (see `floored`).
        guard !(seconds == Int64.min && nanoseconds < 0) else { return nil }
        self.seconds = seconds
        self.nanoseconds = nanoseconds
    }

    /// The epoch, `1970-01-01T00:00:00Z`; the default value of a non-optional `date` property.
    public static let epoch = Timestamp(validSeconds: 0, nanoseconds: 0)

    init(validSeconds seconds: Int64, nanoseconds: Int32) {
        self.seconds = seconds
        self.nanoseconds = nanoseconds
    }

    /// Builds a timestamp from seconds rounded down and a non-negative nanosecond part, the
    /// shape calendar arithmetic produces, normalising to the same-sign representation.
    public init(flooredSeconds: Int64, nonNegativeNanoseconds nanos: Int32) {
        if flooredSeconds < 0 && nanos > 0 {
            self.init(validSeconds: flooredSeconds + 1, nanoseconds: nanos - 1_000_000_000)
        } else {
            self.init(validSeconds: flooredSeconds, nanoseconds: nanos)
        }
    }

    /// Seconds rounded toward negative infinity and the non-negative remainder in nanoseconds.
    public var floored: (seconds: Int64, nanoseconds: Int32) {
        nanoseconds < 0 ? (seconds - 1, nanoseconds + 1_000_000_000) : (seconds, nanoseconds)
    }

    /// The instant as a `Double` number of seconds (loses precision beyond microseconds).
    public var timeIntervalSince1970: Double {
        Double(seconds) + Double(nanoseconds) / 1e9
    }

    /// Builds the nearest timestamp to a number of seconds since the epoch; `nil` for NaN, infinities
    /// and values outside the `Int64` range.
    public init?(timeIntervalSince1970 interval: Double) {
        guard interval.isFinite, interval > -9.2e18, interval < 9.2e18 else { return nil }
        let whole = interval.rounded(.down)
        var nanos = ((interval - whole) * 1e9).rounded()
        var secs = Int64(whole)
        if nanos >= 1e9 {
            nanos -= 1e9
            secs += 1
        }
        self.init(flooredSeconds: secs, nonNegativeNanoseconds: Int32(nanos))
    }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.seconds != rhs.seconds ? lhs.seconds < rhs.seconds : lhs.nanoseconds < rhs.nanoseconds
    }
}

/// Gregorian calendar arithmetic on day numbers (days since 1970-01-01), after Howard Hinnant's
/// `days_from_civil` / `civil_from_days`; exact for every `Int64` second count we accept. Shared
/// by ISO-8601 dataset dates and the query language's `2020-01-02@03:04:05` literal.
///
///     CivilCalendar.days(year: 1970, month: 1, day: 2)   // 1
public enum CivilCalendar {
    public static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    public static func civil(days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    public static func daysInMonth(year: Int64, month: Int64) -> Int64 {
        switch month {
        case 2:
            let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
            return leap ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
