import Foundation
import TrellisCore
import TrellisProtocol

/// An RGB colour of 8-bit channels.
struct RGB: Sendable, Hashable, CustomStringConvertible {
    var r: Int
    var g: Int
    var b: Int

    /// `#rrggbb`.
    init?(hex: String) {
        guard hex.hasPrefix("#"), hex.count == 7, let value = Int(hex.dropFirst(), radix: 16) else { return nil }
        r = value >> 16 & 0xff
        g = value >> 8 & 0xff
        b = value & 0xff
    }

    var description: String { String(format: "#%02x%02x%02x", r, g, b) }
}

/// What a PNG's pixels hold, counted by the browser itself: the PNG is decoded as an `<img>`
/// from a data: URL, drawn to a canvas and read back with getImageData, so the test needs no
/// image library and really looks at every pixel.
struct ScreenshotPixels: Sendable {
    var width: Int
    var height: Int
    /// Pixels further than `tolerance` (per channel) from the background colour.
    var nonBackground: Int
    /// Distinct RGB values among all pixels.
    var distinctColours: Int
    /// For each colour asked about, the pixels within `tolerance` of it.
    var near: [RGB: Int]

    static let tolerance = 4

    static func analyse(_ png: [UInt8], background: RGB, colours: [RGB], in page: BrowserPage) async throws -> ScreenshotPixels {
        let base64 = Data(png).base64EncodedString()
        let wanted = colours.map { "[\($0.r),\($0.g),\($0.b)]" }.joined(separator: ",")
        let script = """
        (async () => {
          const img = new Image();
          img.src = 'data:image/png;base64,\(base64)';
          await img.decode();
          const canvas = document.createElement('canvas');
          canvas.width = img.naturalWidth;
          canvas.height = img.naturalHeight;
          const ctx = canvas.getContext('2d', { willReadFrequently: true });
          ctx.drawImage(img, 0, 0);
          const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
          const bg = [\(background.r), \(background.g), \(background.b)];
          const wanted = [\(wanted)];
          const tol = \(tolerance);
          const near = wanted.map(() => 0);
          const distinct = new Set();
          let nonBackground = 0;
          for (let i = 0; i < data.length; i += 4) {
            const r = data[i], g = data[i + 1], b = data[i + 2];
            distinct.add((r << 16) | (g << 8) | b);
            if (Math.abs(r - bg[0]) > tol || Math.abs(g - bg[1]) > tol || Math.abs(b - bg[2]) > tol) nonBackground++;
            for (let k = 0; k < wanted.length; k++) {
              const c = wanted[k];
              if (Math.abs(r - c[0]) <= tol && Math.abs(g - c[1]) <= tol && Math.abs(b - c[2]) <= tol) near[k]++;
            }
          }
          return { width: canvas.width, height: canvas.height, nonBackground, distinct: distinct.size, near };
        })()
        """
        let value = try await page.evaluate(script, awaitPromise: true, timeout: 60)
        guard let width = value["width"]?.numberValue, let height = value["height"]?.numberValue,
              let nonBackground = value["nonBackground"]?.numberValue, let distinct = value["distinct"]?.numberValue,
              let counts = value["near"]?.arrayValue?.compactMap(\.numberValue), counts.count == colours.count
        else { throw WebTestFailure("the page did not count the screenshot's pixels: \(value)") }
        var near: [RGB: Int] = [:]
        for (colour, count) in zip(colours, counts) { near[colour, default: 0] += Int(count) }
        return ScreenshotPixels(width: Int(width), height: Int(height), nonBackground: Int(nonBackground),
                                distinctColours: Int(distinct), near: near)
    }

    /// Why this picture is not a picture of `expected` coloured cells (empty when it is):
    /// at least a tenth of it is not background, and at least `minimumColours` of the cells'
    /// colours cover `minimumPixels` pixels each.
    func blankness(expected: [RGB], minimumColours: Int, minimumPixels: Int = 200) -> [String] {
        var problems: [String] = []
        let total = width * height
        if total == 0 { return ["the picture is empty (\(width)×\(height))"] }
        if nonBackground * 10 < total {
            problems.append("only \(nonBackground) of \(total) pixels differ from the background")
        }
        let present = expected.filter { (near[$0] ?? 0) >= minimumPixels }
        if present.count < minimumColours {
            problems.append("only \(present.count) of the cells' colours cover \(minimumPixels) pixels (\(present)); want \(minimumColours)")
        }
        return problems
    }
}
