/// One section laid out in flow space (see `FlowSpace`), relative to the section's start along the
/// scroll axis: header, item area and footer lengths, and the cells, either as a uniform grid (pure
/// arithmetic, nothing stored per item) or as per-item frames with a row index to binary-search.
///
/// Section-local storage is what lets the layout re-lay out one section and merely shift the others.
struct FlowSectionGeometry: Sendable {
    private(set) var itemCount = 0
    /// 0 when the section has no header.
    private(set) var headerLength = 0.0
    /// 0 when the section has no footer.
    private(set) var footerLength = 0.0
    /// Where the footer starts: after the header, the insets and the rows. The background spans
    /// `headerLength..<itemAreaEnd`, and a pinned header is pushed off at `itemAreaEnd`.
    private(set) var itemAreaEnd = 0.0
    /// The whole section along the scroll axis; the next section starts there.
    private(set) var length = 0.0
    /// A span along the scroll axis holding every element of the section wherever pinning puts it,
    /// even when negative insets or spacings push elements outside `0..<length`.
    private(set) var extentMin = 0.0
    private(set) var extentMax = 0.0
    /// Set when every item has the default size; then `frames` and `rows` are empty.
    private(set) var grid: FlowGrid?
    /// Variable sizes: each item's frame, in item order.
    private(set) var frames: [Rect] = []
    /// Variable sizes: the rows, in order.
    private(set) var rows: [FlowRow] = []

    /// Lays the section out across `width` (the bounds' length across the scroll axis), reusing the
    /// storage of the previous layout when the item count is unchanged.
    mutating func layOut(_ section: Section, spec: FlowSectionSpec, width: Double, itemSize: Size, space: FlowSpace) {
        itemCount = section.count
        headerLength = spec.headerLength > 0 ? spec.headerLength : 0
        footerLength = spec.footerLength > 0 ? spec.footerLength : 0
        let lineLength = width - spec.inset.left - spec.inset.right
        let firstTop = headerLength + spec.inset.top
        // An empty section keeps its header, insets and footer, as PST lays it out (UIKit unconfirmed).
        var rowsEnd = firstTop, rowsMin = firstTop, rowsMax = firstTop
        if section.hasUniformItems {
            frames = []
            rows = []
            let g = FlowGrid(count: itemCount, itemSize: space.map(itemSize), spec: spec, lineLength: lineLength, firstTop: firstTop)
            grid = g
            if g.rowCount > 0 {
                let lastTop = g.firstY + Double(g.rowCount - 1) * g.pitchY
                rowsEnd = lastTop + g.itemSize.height
                rowsMin = Swift.min(g.firstY, lastTop)
                rowsMax = Swift.max(g.firstY, lastTop) + g.itemSize.height
            }
        } else {
            grid = nil
            (rowsEnd, rowsMin, rowsMax) = layOutRows(section.items, spec: spec, lineLength: lineLength,
                                                     firstTop: firstTop, itemSize: itemSize, space: space)
        }
        itemAreaEnd = rowsEnd + spec.inset.bottom
        length = itemAreaEnd + footerLength
        extentMin = Swift.min(0, itemAreaEnd, rowsMin)
        extentMax = Swift.max(length, headerLength, itemAreaEnd, rowsMax)
    }

    /// The frame of item `item` (section-local flow space).
    @inline(__always) func frame(ofItem item: Int) -> Rect {
        if let grid { return grid.frame(ofItem: item) }
        return frames[item]
    }

    /// Calls `body` with every item whose frame might overlap `lo..<hi` along the scroll axis and
    /// `left..<right` across it (section-local), in item order: a superset the caller filters
    /// exactly. Uniform: the row and column ranges are computed; variable: rows are binary-searched.
    @inline(__always)
    func forEachCandidate(lo: Double, hi: Double, left: Double, right: Double, _ body: (Int, Rect) -> Void) {
        if let g = grid {
            let rowRange = FlowGrid.candidates(start: g.firstY, pitch: g.pitchY, length: g.itemSize.height,
                                               count: g.rowCount, lo: lo, hi: hi)
            let columnRange = FlowGrid.candidates(start: g.firstX, pitch: g.pitchX, length: g.itemSize.width,
                                                  count: Swift.min(g.perRow, itemCount), lo: left, hi: right)
            for row in rowRange {
                let base = row * g.perRow
                for column in columnRange {
                    let item = base + column
                    if item >= itemCount { break }
                    body(item, g.frame(row: row, column: column))
                }
            }
            return
        }
        // The first row that ends after `lo`; `searchBottom` grows monotonically.
        var low = 0, high = rows.count
        while low < high {
            let mid = (low + high) / 2
            if rows[mid].searchBottom > lo { high = mid } else { low = mid + 1 }
        }
        var row = low
        while row < rows.count, rows[row].searchTop < hi {
            let end = row + 1 < rows.count ? rows[row + 1].firstItem : itemCount
            for item in rows[row].firstItem..<end { body(item, frames[item]) }
            row += 1
        }
    }

    /// Calls `body` with every item from `first` on whose frame might overlap `lo..<hi` along the
    /// scroll axis and `left..<right` across it (section-local), in item order, until `body`
    /// returns false: a superset the caller filters exactly. Uniform: the row and column ranges
    /// are computed; variable: rows are binary-searched. False when `body` stopped it.
    @inline(__always)
    func forEachCandidate(from first: Int, lo: Double, hi: Double, left: Double, right: Double,
                          _ body: (Int, Rect) -> Bool) -> Bool {
        if let g = grid {
            let rowRange = FlowGrid.candidates(start: g.firstY, pitch: g.pitchY, length: g.itemSize.height,
                                               count: g.rowCount, lo: lo, hi: hi)
            let columnRange = FlowGrid.candidates(start: g.firstX, pitch: g.pitchX, length: g.itemSize.width,
                                                  count: Swift.min(g.perRow, itemCount), lo: left, hi: right)
            // Rows before the one holding `first` are skipped, not visited.
            let firstRow = g.perRow > 0 ? Swift.max(rowRange.lowerBound, first / g.perRow) : rowRange.lowerBound
            guard firstRow < rowRange.upperBound else { return true }
            for row in firstRow..<rowRange.upperBound {
                let base = row * g.perRow
                for column in columnRange {
                    let item = base + column
                    if item >= itemCount { break }
                    if item < first { continue }
                    if !body(item, g.frame(row: row, column: column)) { return false }
                }
            }
            return true
        }
        // The first row that ends after `lo`; `searchBottom` grows monotonically.
        var low = 0, high = rows.count
        while low < high {
            let mid = (low + high) / 2
            if rows[mid].searchBottom > lo { high = mid } else { low = mid + 1 }
        }
        if first > 0 {
            // The row holding `first`: the last one that starts at or before it.
            var a = 0, b = rows.count
            while a < b {
                let mid = (a + b) / 2
                if rows[mid].firstItem <= first { a = mid + 1 } else { b = mid }
            }
            low = Swift.max(low, a - 1)
        }
        var row = low
        while row < rows.count, rows[row].searchTop < hi {
            let end = row + 1 < rows.count ? rows[row + 1].firstItem : itemCount
            for item in Swift.max(first, rows[row].firstItem)..<Swift.max(end, first) where !body(item, frames[item]) { return false }
            row += 1
        }
        return true
    }

    /// The per-item pass: greedy rows, then each row's spacing and cross-axis centring, into
    /// contiguous storage.
    private mutating func layOutRows(_ items: ItemList, spec: FlowSectionSpec, lineLength: Double, firstTop: Double,
                                     itemSize: Size, space: FlowSpace) -> (end: Double, min: Double, max: Double) {
        let n = items.count
        guard n > 0 else { frames = []; rows = []; return (firstTop, firstTop, firstTop) }
        // Taken out of `self` so they are uniquely referenced while written.
        var frames = self.frames, rows = self.rows
        self.frames = []
        self.rows = []
        // At most one row per item; storage much larger than that (a section that shrank) is let go.
        if rows.capacity > 2 * n + 64 { rows = [] } else { rows.removeAll(keepingCapacity: true) }
        rows.reserveCapacity(n)
        var result = (end: firstTop, min: firstTop, max: firstTop)
        let horizontal = space.isHorizontal
        if frames.count == n {
            frames.withUnsafeMutableBufferPointer { buffer in
                result = Self.fillRows(items, into: buffer.baseAddress!, rows: &rows, defaultSize: itemSize,
                                       horizontal: horizontal, spec: spec, lineLength: lineLength, firstTop: firstTop)
            }
        } else {
            frames = []   // freed before the new storage is taken, so it can be reused
            frames = [Rect](unsafeUninitializedCapacity: n) { buffer, initialized in
                result = Self.fillRows(items, into: buffer.baseAddress!, rows: &rows, defaultSize: itemSize,
                                       horizontal: horizontal, spec: spec, lineLength: lineLength, firstTop: firstTop)
                initialized = n
            }
        }
        self.frames = frames
        self.rows = rows
        return result
    }

    /// Fills `f[0..<items.count]` (each slot is initialised before it is read) and appends the rows.
    private static func fillRows(_ items: ItemList, into f: UnsafeMutablePointer<Rect>, rows: inout [FlowRow],
                                 defaultSize: Size, horizontal: Bool, spec: FlowSectionSpec, lineLength: Double,
                                 firstTop: Double) -> (end: Double, min: Double, max: Double) {
        let n = items.count, spacing = spec.interitemSpacing, lineStart = spec.inset.left
        // Rows read the items in order (a row's first item twice), so a cursor finds each in O(1).
        // Passed inout, not captured: a captured var costs a dynamic exclusivity check per read.
        var cursor = ItemList.Cursor(items)
        @inline(__always) func size(_ i: Int, _ cursor: inout ItemList.Cursor) -> Size {
            let s = cursor.size(at: i) ?? defaultSize
            return horizontal ? Size(width: s.height, height: s.width) : s
        }
        var i = 0, top = firstTop, end = firstTop
        var maxBottom = -Double.infinity
        var topsAscend = true
        while i < n {
            let first = i
            var item = size(i, &cursor)
            (f + i).initialize(to: Rect(origin: .zero, size: item))
            var used = item.width, rowHeight = item.height
            i += 1
            // Greedy: the next item joins while the spacing and its width still fit.
            while i < n {
                item = size(i, &cursor)
                let next = used + spacing + item.width
                if !(next <= lineLength) { break }
                (f + i).initialize(to: Rect(origin: .zero, size: item))
                used = next
                if item.height > rowHeight { rowHeight = item.height }
                i += 1
            }
            var slots: Int? = i - first
            var leftover = lineLength - used
            if i == n && !(first == 0 && i == 1) {
                // The last row is spaced as if full, with phantom items the size of its last item:
                // PST's rule; what UIKit does for variable sizes is unconfirmed. A section's only
                // item is left alone here, so `spread` centres it like any one-item row.
                let step = f[i - 1].size.width + spacing
                if let more = FlowGrid.additionalFits(in: leftover, step: step) {
                    slots! += more
                    leftover -= Double(more) * step
                } else {
                    slots = nil
                }
            }
            var (x, extra) = FlowGrid.spread(slots: slots, leftover: leftover, lineStart: lineStart)
            for j in first..<i {
                let w = f[j].size.width
                f[j].origin = Point(x: x, y: top + (rowHeight - f[j].size.height) / 2)
                x += w + spacing + extra
            }
            let bottom = top + rowHeight
            if bottom > maxBottom { maxBottom = bottom }
            rows.append(FlowRow(firstItem: first, searchTop: top, searchBottom: maxBottom))
            end = bottom
            // Only a negative line spacing larger than a row can move the next row up.
            if !(rowHeight + spec.lineSpacing >= 0) { topsAscend = false }
            top = bottom + spec.lineSpacing
        }
        if !topsAscend {
            var least = Double.infinity
            for r in rows.indices.reversed() {
                least = Swift.min(least, rows[r].searchTop)
                rows[r].searchTop = least
            }
        }
        return (end, rows[0].searchTop, maxBottom)
    }
}

/// A row of a variable-size section: its first item and the bounds rows are binary-searched by.
struct FlowRow: Hashable, Sendable {
    var firstItem: Int
    /// The least top of this row and every later one (the row's own top unless rows overlap backwards).
    var searchTop: Double
    /// The greatest bottom of this row and every earlier one.
    var searchBottom: Double
}

/// A uniform section's grid in flow space: every item has the same size, so the number per row, the
/// spacing and every frame follow from arithmetic.
struct FlowGrid: Hashable, Sendable {
    var itemSize: Size
    /// Items per row: as many as fit (the last row is spaced for this many too); at least 1.
    var perRow: Int
    var rowCount: Int
    /// Column 0's x and the distance between columns (minimum spacing plus the justified extra).
    var firstX: Double
    var pitchX: Double
    /// Row 0's y and the distance between rows.
    var firstY: Double
    var pitchY: Double

    init(count: Int, itemSize: Size, spec: FlowSectionSpec, lineLength: Double, firstTop: Double) {
        let w = itemSize.width, spacing = spec.interitemSpacing
        let more = FlowGrid.additionalFits(in: lineLength - w, step: w + spacing)
        let slots = more.map { $0 + 1 }
        self.itemSize = itemSize
        perRow = slots ?? Swift.max(count, 1)
        rowCount = count == 0 ? 0 : (count - 1) / perRow + 1
        let leftover = more.map { lineLength - (w + Double($0) * (w + spacing)) } ?? 0
        let spread = FlowGrid.spread(slots: slots, leftover: leftover, lineStart: spec.inset.left)
        // A section's only item is centred, as UIKit users see it ("When there's only one cell
        // in a collection view it's aligned to center"); a last row of several rows is not.
        firstX = count == 1 ? spec.inset.left + (lineLength - w) / 2 : spread.x
        pitchX = w + spacing + spread.extra
        firstY = firstTop
        pitchY = itemSize.height + spec.lineSpacing
    }

    @inline(__always) func frame(row: Int, column: Int) -> Rect {
        Rect(x: firstX + Double(column) * pitchX, y: firstY + Double(row) * pitchY,
             width: itemSize.width, height: itemSize.height)
    }

    @inline(__always) func frame(ofItem item: Int) -> Rect {
        let row = item / perRow
        return frame(row: row, column: item - row * perRow)
    }

    /// How many more items of `step` (an item plus the spacing before it) fit in `space`: the greedy
    /// count. Nil when unboundedly many do (a step ≤ 0, or vanishingly small against the space).
    static func additionalFits(in space: Double, step: Double) -> Int? {
        guard step > 0 else { return nil }
        guard space >= step else { return 0 }
        let quotient = space / step
        guard quotient < 1e15 else { return nil }
        var k = Int(quotient)
        while k > 0, Double(k) * step > space { k -= 1 }
        while Double(k + 1) * step <= space { k += 1 }
        return k
    }

    /// Justification: where a row's first item goes and the extra gap after each item, for a row
    /// spaced for `slots` items (nil: unboundedly many, so no extra gap) with `leftover` space beyond
    /// those items and their minimum spacing. A row spaced for one item centres it (PST and UXK agree).
    static func spread(slots: Int?, leftover: Double, lineStart: Double) -> (x: Double, extra: Double) {
        guard let slots else { return (lineStart, 0) }
        if slots <= 1 { return (lineStart + leftover / 2, 0) }
        return (lineStart, leftover / Double(slots - 1))
    }

    /// The indices in `0..<count` whose span `start + k·pitch ..< + length` may overlap `lo..<hi`,
    /// widened by one on each side so rounding never drops one; the caller tests each exactly.
    static func candidates(start: Double, pitch: Double, length: Double, count: Int, lo: Double, hi: Double) -> Range<Int> {
        guard count > 0 else { return 0..<0 }
        guard pitch != 0 else { return 0..<count }
        // start + k·pitch < hi and start + k·pitch + length > lo, solved for k (the order flips when pitch < 0).
        let a = (lo - length - start) / pitch, b = (hi - start) / pitch
        guard !a.isNaN, !b.isNaN else { return 0..<count }
        let limit = Double(count) + 2
        let first = Swift.max(-2, Swift.min(limit, Swift.min(a, b).rounded(.down)))
        let last = Swift.max(-2, Swift.min(limit, Swift.max(a, b).rounded(.up)))
        let lower = Swift.max(0, Int(first) - 1), upper = Swift.min(count, Int(last) + 2)
        return lower < upper ? lower..<upper : 0..<0
    }
}
