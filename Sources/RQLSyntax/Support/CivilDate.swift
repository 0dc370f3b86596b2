/// A proleptic Gregorian calendar date, for the `2020-01-02@03:04:05` literal.
struct CivilDate {
    let year: Int64
    let month: Int64
    let day: Int64

    /// Nil unless the date exists: year 0 through 9999, month 1 through 12, a day the month has.
    init?(year: Int64, month: Int64, day: Int64) {
        guard (0...9999).contains(year), (1...12).contains(month), day >= 1 else { return nil }
        let isLeap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let lengths: [Int64] = [31, isLeap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard day <= lengths[Int(month - 1)] else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Days from 1970-01-01 (negative before it): Howard Hinnant's `days_from_civil`, which counts
    /// in 400-year eras starting in March so that the leap day falls at the end of a year.
    var daysSinceEpoch: Int64 {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
