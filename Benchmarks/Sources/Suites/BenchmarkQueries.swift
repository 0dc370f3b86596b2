/// The twelve queries of the benchmark dataset contract (`spec/bench-dataset.md`), shared by
/// every suite so each stage is timed on the same text.
///
///     BenchmarkQuery.all[0]   // Q1: "age > 90"
public struct BenchmarkQuery: Sendable {
    /// "Q1" … "Q12".
    public let id: String
    /// The RQL text. Q9 (the count of Q1) has Q1's text.
    public let text: String

    public static let all: [BenchmarkQuery] = [
        BenchmarkQuery(id: "Q1", text: "age > 90"),
        BenchmarkQuery(id: "Q2", text: "age >= 20 AND age < 30 AND active == true"),
        BenchmarkQuery(id: "Q3", text: "name BEGINSWITH 'Ma'"),
        BenchmarkQuery(id: "Q4", text: "name CONTAINS[c] 'an'"),
        BenchmarkQuery(id: "Q5", text: "city == 'City42'"),
        BenchmarkQuery(id: "Q6", text: "id == 123456"),
        BenchmarkQuery(id: "Q7", text: "score > 0.5 AND (age < 10 OR city IN {'City1', 'City2', 'City3'})"),
        BenchmarkQuery(id: "Q8", text: "nickname == nil"),
        BenchmarkQuery(id: "Q9", text: "age > 90"),
        BenchmarkQuery(id: "Q10", text: "age > 50 SORT(score DESC) LIMIT(10)"),
        BenchmarkQuery(id: "Q11", text: "name LIKE '*an?a*'"),
        BenchmarkQuery(id: "Q12", text: "age BETWEEN {30, 40} AND nickname BEGINSWITH 'nick1'"),
    ]
}
