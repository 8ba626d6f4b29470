extension LayoutAttributes {
    /// The elements of `list` after `after` (all when nil; none when it is not among them), at
    /// most `limit`: a page cut from a result that was computed whole.
    public static func page(of list: [LayoutAttributes], after: ElementID?, limit: Int) -> [LayoutAttributes] {
        var start = 0
        if let after {
            guard let found = list.firstIndex(where: { $0.element == after }) else { return [] }
            start = found + 1
        }
        let end = limit >= list.count - start ? list.count : start + Swift.max(0, limit)
        return Array(list[start..<end])
    }
}
