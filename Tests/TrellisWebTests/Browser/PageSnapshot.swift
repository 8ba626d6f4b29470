import Foundation
import TrellisCore
import TrellisProtocol

/// What the browser shows for one `div.view`: the styles as the browser computed them (after
/// the cascade, so a style sheet that overrode the page's inline styles would show here).
struct PageView: Sendable {
    var id: Int
    var displayed: Bool
    var left: Double
    var top: Double
    var width: Double
    var height: Double
    var opacity: Double
    var visibility: String
    var zIndex: Int?
    /// `getComputedStyle(el).transform`: `none`, `matrix(…)` or `matrix3d(…)`, numbers
    /// printed to 6 significant digits.
    var transformText: String
    /// The same transform from CSS Typed OM (`computedStyleMap()`), at full double precision:
    /// DOMMatrix's m11…m44, which is the 16 numbers of `matrix3d(…)` in their order.
    var matrix: [Double]
    var label: String
}

/// The page's stage and every view element in it, read in one evaluation (one instant).
struct PageSnapshot: Sendable {
    var seq: String
    var stageWidth: Double
    var stageHeight: Double
    var views: [PageView]

    /// Typed OM's lengths are in px (the page writes px) and computed as 32-bit floats, which is
    /// 6e-5 px at 1,000 px: well inside the tests' 1e-3. getComputedStyle's strings would round
    /// to 6 significant digits (1234.567 → 1234.57), so the boxes are read from Typed OM.
    static let script = #"""
    (() => {
      const stage = document.getElementById('stage');
      if (!stage) return null;
      const px = (map, name) => {
        const v = map.get(name);
        return (v instanceof CSSUnitValue && v.unit === 'px') ? v.value : null;
      };
      const stageMap = stage.computedStyleMap();
      const views = [...stage.querySelectorAll('div.view')].map(el => {
        const cs = getComputedStyle(el);
        const map = el.computedStyleMap();
        const t = map.get('transform');
        const m = (t instanceof CSSTransformValue) ? t.toMatrix() : new DOMMatrix();
        const opacity = map.get('opacity');
        return {
          id: Number(el.dataset.view),
          displayed: cs.display !== 'none',
          left: px(map, 'left'), top: px(map, 'top'), width: px(map, 'width'), height: px(map, 'height'),
          opacity: opacity instanceof CSSUnitValue ? opacity.value : null,
          visibility: cs.visibility,
          zIndex: cs.zIndex === 'auto' ? null : Number(cs.zIndex),
          transformText: cs.transform,
          matrix: [m.m11, m.m12, m.m13, m.m14, m.m21, m.m22, m.m23, m.m24,
                   m.m31, m.m32, m.m33, m.m34, m.m41, m.m42, m.m43, m.m44],
          label: el.textContent,
        };
      });
      return { seq: stage.dataset.seq || '', stageWidth: px(stageMap, 'width'), stageHeight: px(stageMap, 'height'), views };
    })()
    """#

    static func read(from page: BrowserPage) async throws -> PageSnapshot {
        let value = try await page.evaluate(script)
        guard case .object = value else { throw WebTestFailure("the page has no #stage") }
        func number(_ v: JSONValue?, _ what: String) throws -> Double {
            guard let n = v?.numberValue else { throw WebTestFailure("the page gave no number for \(what): \(v.map { "\($0)" } ?? "nothing")") }
            return n
        }
        let views = try (value["views"]?.arrayValue ?? []).map { v -> PageView in
            let id = Int(try number(v["id"], "a view's id"))
            let matrix = try (v["matrix"]?.arrayValue ?? []).map { try number($0, "view \(id)'s matrix") }
            return PageView(
                id: id, displayed: v["displayed"] == .bool(true),
                left: try number(v["left"], "view \(id)'s left"), top: try number(v["top"], "view \(id)'s top"),
                width: try number(v["width"], "view \(id)'s width"), height: try number(v["height"], "view \(id)'s height"),
                opacity: try number(v["opacity"], "view \(id)'s opacity"),
                visibility: v["visibility"]?.stringValue ?? "",
                zIndex: v["zIndex"]?.numberValue.map { Int($0) },
                transformText: v["transformText"]?.stringValue ?? "",
                matrix: matrix, label: v["label"]?.stringValue ?? "")
        }
        return PageSnapshot(
            seq: value["seq"]?.stringValue ?? "",
            stageWidth: try number(value["stageWidth"], "the stage's width"),
            stageHeight: try number(value["stageHeight"], "the stage's height"),
            views: views)
    }
}

/// CSS's computed `transform` text as the 16 numbers of a `matrix3d` (column-major, which is
/// Core Animation's row-vector matrix listed row by row): `none` is the identity and the 2D
/// `matrix(a, b, c, d, e, f)` is `matrix3d(a, b, 0, 0, c, d, 0, 0, 0, 0, 1, 0, e, f, 0, 1)`.
/// nil for anything else.
func cssTransformMatrix(_ text: String) -> [Double]? {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    if trimmed == "none" { return SceneTransform.identity }
    func numbers(after prefix: String) -> [Double]? {
        guard trimmed.hasPrefix(prefix), trimmed.hasSuffix(")") else { return nil }
        let inner = trimmed.dropFirst(prefix.count).dropLast()
        let values = inner.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard values.allSatisfy({ $0 != nil }) else { return nil }
        return values.map { $0! }
    }
    if let m = numbers(after: "matrix3d("), m.count == 16 { return m }
    if let m = numbers(after: "matrix("), m.count == 6 {
        return [m[0], m[1], 0, 0, m[2], m[3], 0, 0, 0, 0, 1, 0, m[4], m[5], 0, 1]
    }
    return nil
}

/// The scene's transforms as the wire gives them.
enum SceneTransform {
    static let identity: [Double] = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
}
