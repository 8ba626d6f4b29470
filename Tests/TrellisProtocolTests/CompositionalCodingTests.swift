import Testing
import TrellisCore
@testable import TrellisProtocol

/// The compositional layout's JSON: a description decodes to the typed tree and encodes back to
/// an equal one; each kind of bad input is refused with the path of the value in the description.
@Suite struct CompositionalCodingTests {
    static let badges = #"""
    {"type": "compositional", "scrollDirection": "vertical", "interSectionSpacing": 8,
     "sections": [
      {"name": "grid", "contentInsets": [10, 10, 10, 10], "interGroupSpacing": 10,
       "group": {"arrangement": "horizontal", "size": {"width": {"fractionalWidth": 1}, "height": {"absolute": 44}},
                 "interItemSpacing": {"flexible": 4},
                 "subitems": [{"size": {"width": {"fractionalWidth": 0.5}, "height": {"fractionalHeight": 1}}, "contentInsets": [5, 5, 5, 5],
                               "supplementaryItems": [{"kind": "badge", "size": {"width": {"absolute": 20}, "height": {"absolute": 20}},
                                                       "edges": ["top", "trailing"], "fractionalOffset": [0.3, -0.3]}]},
                              {"arrangement": "vertical", "size": {"width": {"fractionalWidth": 0.25}, "height": {"fractionalHeight": 1}}, "count": 2,
                               "subitems": [{"size": {"width": {"fractionalWidth": 1}, "height": {"fractionalHeight": 1}}}]}]},
       "boundarySupplementaryItems": [{"kind": "header", "size": {"width": {"fractionalWidth": 1}, "height": {"estimated": 30}},
                                       "alignment": "top", "pinToVisibleBounds": true, "zIndex": 2}],
       "decorationItems": [{"contentInsets": [5, 5, 5, 5]}]},
      {"name": "strip", "orthogonalScrollingBehavior": "groupPagingCentered",
       "group": {"arrangement": "custom", "size": {"width": {"absolute": 100}, "height": {"absolute": 100}},
                 "frames": [{"frame": [0, 0, 50, 50]}, {"frame": [50, 50, 50, 50], "zIndex": 1}]}}],
     "provider": {"rule": "byIdentifier", "map": {"news": "strip"}, "fallback": "grid"}}
    """#

    static func decode(_ text: String) throws(ParamError) -> any Layout {
        try LayoutSpec.layout(try! JSONParser.parse(text), path: "layout")
    }

    @Test func aDescriptionRoundTrips() throws {
        let layout = try #require(try Self.decode(Self.badges) as? CompositionalLayout)
        #expect(layout.layoutDescription.sections.count == 2)
        #expect(layout.layoutDescription.rule == .byIdentifier(["news": "strip"], fallback: "grid"))
        let badge = layout.layoutDescription.sections[0].group.subitems.first.flatMap { s -> CompositionalItem? in
            if case .item(let i) = s { return i }
            return nil
        }?.supplementaryItems.first
        #expect(badge?.anchor == CompositionalAnchor(edges: [.top, .trailing], offset: Point(0.3, -0.3), isFractionalOffset: true))
        let json = try #require(LayoutEncoding.json(layout))
        let again = try #require(try LayoutSpec.layout(json, path: "layout") as? CompositionalLayout)
        #expect(again.layoutDescription == layout.layoutDescription)
        #expect(LayoutEncoding.json(again) == json)
    }

    @Test func aListPresetStaysAPreset() throws {
        let layout = try #require(try Self.decode(#"{"type": "compositional", "list": {"appearance": "insetGrouped", "headerMode": "supplementary"}}"#) as? CompositionalLayout)
        #expect(layout.list == CompositionalListConfiguration(appearance: .insetGrouped, headerMode: .supplementary))
        let json = try #require(LayoutEncoding.json(layout))
        #expect(json["sections"] == nil)
        #expect(json["list"]?["appearance"] == .string("insetGrouped"))
    }

    /// Replaces `old` with `new` in the valid description and returns the refusal's message.
    static func refusal(_ old: String, _ new: String) -> String? {
        let text = badges.replacing(old, with: new)
        #expect(text != badges, "the substitution of \(old) did not apply")
        do { _ = try decode(text); return nil } catch { return error.message }
    }

    @Test func anAdaptiveCountRoundTripsAndBadOnesNameTheirPath() throws {
        let adaptive = #""count": {"otherwise": 2, "byWidth": [{"above": 800, "count": 4}]},"#
        let text = Self.badges.replacing(#""count": 2,"#, with: adaptive)
        let layout = try #require(try Self.decode(text) as? CompositionalLayout)
        guard case .group(let column)? = layout.layoutDescription.sections[0].group.subitems.last else { Issue.record("no nested group"); return }
        #expect(column.adaptiveCount == CompositionalAdaptiveCount(steps: [.init(above: 800, count: 4)], otherwise: 2))
        #expect(column.count == 2)
        let json = try #require(LayoutEncoding.json(layout))
        let again = try #require(try LayoutSpec.layout(json, path: "layout") as? CompositionalLayout)
        #expect(again.layoutDescription == layout.layoutDescription)
        func refused(_ count: String) -> String? {
            do { _ = try Self.decode(Self.badges.replacing(#""count": 2,"#, with: "\"count\": \(count),")); return nil }
            catch { return error.message }
        }
        let at = "layout.sections[0].group.subitems[1].count"
        #expect(refused(#"{"byWidth": [{"above": 800, "count": 4}]}"#)?.hasPrefix(at + ".otherwise:") == true)
        #expect(refused(#"{"otherwise": 2, "byWidth": [{"above": 800, "count": 0}]}"#)?.hasPrefix(at + ".byWidth[0].count:") == true)
        #expect(refused(#"{"otherwise": 2, "byWidth": [{"above": -1, "count": 3}]}"#)?.hasPrefix(at + ".byWidth[0].above:") == true)
        #expect(refused(#"{"otherwise": 2, "byWidth": [{"above": 8, "count": 3}, {"above": 8, "count": 4}]}"#)?.hasPrefix(at + ".byWidth[1].above:") == true)
        #expect(refused(#"{"otherwise": 2, "byWidth": []}"#)?.hasPrefix(at + ".byWidth:") == true)
        #expect(refused(#"{"otherwise": 2, "byWidth": [{"above": 8, "count": 3}], "extra": 1}"#)?.contains("extra") == true)
    }

    @Test func badInputNamesItsPath() {
        // A fraction of an estimated (self-sizing) container.
        let noContainer = Self.refusal(#""height": {"absolute": 44}},"#, #""height": {"estimated": 44}},"#)
        #expect(noContainer?.hasPrefix("layout.sections[0].group.subitems[0].size.height.fractionalHeight:") == true, "\(noContainer ?? "")")
        // Zero-size items.
        let zero = Self.refusal(#""width": {"fractionalWidth": 0.5}"#, #""width": {"absolute": 0}"#)
        #expect(zero?.hasPrefix("layout.sections[0].group.subitems[0].size.width:") == true, "\(zero ?? "")")
        // Insets that eat an item.
        let eaten = Self.refusal(#""frames": [{"frame": [0, 0, 50, 50]}"#, #""contentInsets": [0, 60, 0, 60], "frames": [{"frame": [0, 0, 50, 50]}"#)
        #expect(eaten?.hasPrefix("layout.sections[1].group.contentInsets:") == true, "\(eaten ?? "")")
        // A provider naming no section.
        let unnamed = Self.refusal(#""map": {"news": "strip"}"#, #""map": {"news": "stripe"}"#)
        #expect(unnamed?.hasPrefix("layout.provider.map.news: expected the name of a section description") == true, "\(unnamed ?? "")")
        // Huge numbers.
        let huge = Self.refusal(#""interGroupSpacing": 10"#, #""interGroupSpacing": 1e300"#)
        #expect(huge?.hasPrefix("layout.sections[0].interGroupSpacing:") == true, "\(huge ?? "")")
        let far = Self.refusal(#""fractionalWidth": 0.25"#, #""fractionalWidth": 1e9"#)
        #expect(far?.hasPrefix("layout.sections[0].group.subitems[1].size.width.fractionalWidth:") == true, "\(far ?? "")")
        // Unknown keys and both list and sections.
        let unknown = Self.refusal(#""count": 2"#, #""count": 2, "cont": 1"#)
        #expect(unknown?.contains("layout.sections[0].group.subitems[1]") == true && unknown?.contains("cont") == true, "\(unknown ?? "")")
        #expect(Self.refusal(#""provider""#, #""list": {"appearance": "plain"}, "provider""#)?.hasPrefix("layout.list:") == true)
    }

    @Test func tooDeepOrTooBigIsRefused() {
        var group = #"{"arrangement": "horizontal", "size": {"width": {"absolute": 10}, "height": {"absolute": 10}}, "subitems": [{"size": {"width": {"absolute": 10}, "height": {"absolute": 10}}}]}"#
        for _ in 0..<CompositionalCoding.Limits.depth {
            group = #"{"arrangement": "horizontal", "size": {"width": {"absolute": 10}, "height": {"absolute": 10}}, "subitems": ["# + group + "]}"
        }
        do {
            _ = try Self.decode(#"{"type": "compositional", "sections": [{"group": "# + group + "}]}")
            Issue.record("nine levels were accepted")
        } catch let error as ParamError {
            #expect(error.message.contains("nest at most 8 deep"), "\(error.message)")
            #expect(error.message.hasPrefix("layout.sections[0].group" + String(repeating: ".subitems[0]", count: 8)), "\(error.message)")
        }
        let item = #"{"size": {"width": {"absolute": 1}, "height": {"absolute": 1}}}"#
        let many = Array(repeating: item, count: CompositionalCoding.Limits.nodes + 1).joined(separator: ",")
        do {
            _ = try Self.decode(#"{"type": "compositional", "sections": [{"group": {"arrangement": "horizontal", "size": {"width": {"absolute": 10}, "height": {"absolute": 10}}, "subitems": ["# + many + "]}}]}")
            Issue.record("too many nodes were accepted")
        } catch let error as ParamError {
            #expect(error.message.contains("at most 2000"), "\(error.message)")
        }
    }
}

/// The visible-items effect on the wire: it round-trips, and each bad value is refused by path.
@Suite struct CompositionalEffectCodingTests {
    static let strip = #"{"name": "strip", "orthogonalScrollingBehavior": "groupPagingCentered","#

    @Test func anEffectRoundTrips() throws {
        let text = CompositionalCodingTests.badges.replacing(Self.strip, with: Self.strip + #" "visibleItemsEffect": {"scale": {"min": 0.7}, "alpha": {"min": 0.5}, "distance": 150},"#)
        let layout = try #require(try CompositionalCodingTests.decode(text) as? CompositionalLayout)
        #expect(layout.layoutDescription.sections[1].visibleItemsEffect == CompositionalVisibleItemsEffect(minimumScale: 0.7, minimumAlpha: 0.5, distance: 150))
        let json = try #require(LayoutEncoding.json(layout))
        let again = try #require(try LayoutSpec.layout(json, path: "layout") as? CompositionalLayout)
        #expect(again.layoutDescription == layout.layoutDescription)
    }

    @Test func badEffectsNameTheirPath() {
        func refusal(_ effect: String, in section: String = Self.strip) -> String? {
            CompositionalCodingTests.refusal(section, section + #" "visibleItemsEffect": "# + effect + ",")
        }
        let big = refusal(#"{"scale": {"min": 1.5}}"#)
        #expect(big?.hasPrefix("layout.sections[1].visibleItemsEffect.scale.min: expected a number from 0 to 1") == true, "\(big ?? "")")
        let negative = refusal(#"{"alpha": {"min": -0.1}}"#)
        #expect(negative?.hasPrefix("layout.sections[1].visibleItemsEffect.alpha.min:") == true, "\(negative ?? "")")
        let missing = refusal(#"{"alpha": {}}"#)
        #expect(missing?.hasPrefix("layout.sections[1].visibleItemsEffect.alpha.min:") == true, "\(missing ?? "")")
        let unknown = refusal(#"{"spin": {"min": 0.5}}"#)
        #expect(unknown?.contains("layout.sections[1].visibleItemsEffect") == true && unknown?.contains("spin") == true, "\(unknown ?? "")")
        let distance = refusal(#"{"distance": 0}"#)
        #expect(distance?.hasPrefix("layout.sections[1].visibleItemsEffect.distance:") == true, "\(distance ?? "")")
        // Not orthogonal: the grid section.
        let flat = refusal(#"{"scale": {"min": 0.5}}"#, in: #"{"name": "grid","#)
        #expect(flat?.hasPrefix("layout.sections[0].visibleItemsEffect: ") == true && flat?.contains("only an orthogonal section") == true, "\(flat ?? "")")
    }
}
