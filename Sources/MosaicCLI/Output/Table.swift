/// Plain-text tables with aligned columns, for listings people read.
struct Table {
    let headers: [String]
    var rows: [[String]] = []

    init(_ headers: [String]) { self.headers = headers }

    mutating func add(_ row: [String]) { rows.append(row) }

    func rendered() -> String {
        let all = [headers] + rows
        var widths = [Int](repeating: 0, count: headers.count)
        for row in all {
            for (i, cell) in row.enumerated() where i < widths.count {
                widths[i] = max(widths[i], cell.count)
            }
        }
        return all.map { row in
            row.enumerated().map { i, cell in
                i == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[i] - cell.count)
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }
}
