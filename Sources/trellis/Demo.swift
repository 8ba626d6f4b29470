import ArgumentParser
import Foundation
import TrellisClient
import TrellisCore

/// The engine demo: runs a collection view in-process with a manual clock and prints frames
/// as text. It becomes "start the server and show a demo session" when the server lands.
struct Demo: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the engine in-process and print a scripted scene, frame by frame.",
        discussion: """
            Lays out 18 items with a flow layout on a 375×812 view, scrolls, scrolls to an \
            item, taps one, inserts and deletes items with animation, and animates flow → \
            circle → flow, printing each frame as text. Time is a manual clock, so the output \
            is the same on every machine.
            """)

    @Option(help: "Characters across.") var columns = 60
    @Option(help: "Lines down.") var rows = 32
    @Option(help: "Frames printed per animation (at 0, …, end).") var framesPerAnimation = 3

    func run() throws {
        let renderer = TextRenderer(columns: columns, rows: rows)
        var flow = FlowLayout()
        flow.itemSize = Size(100, 100)
        flow.minimumLineSpacing = 10
        flow.minimumInteritemSpacing = 10
        flow.sectionInset = EdgeInsets(top: 10, left: 10, bottom: 10, right: 10)
        let palette = ["red", "green", "blue", "orange", "purple"]
        let items = (0..<18).map { i in
            Item(id: ItemID("item\(i)"), data: .object(["label": .string("#\(i)"), "color": .string(palette[i % palette.count])]))
        }
        var view = CollectionView(boundsSize: Size(375, 812), layout: flow,
                                  data: try CollectionData(sections: [Section(id: "main", items: items)]))
        var time = 0.0

        func show(_ title: String) {
            let scene = view.scene
            let counters = view.reusePool.counters.values.reduce(into: (0, 0)) { $0.0 += $1.created; $0.1 += $1.reused }
            print("── \(title) — t=\(String(format: "%.3f", time))s offset=\(scene.contentOffset) views=\(scene.views.count) created=\(counters.0) reused=\(counters.1)")
            for line in renderer.render(scene) { print("│" + line + "│") }
        }
        func animate(_ title: String, duration: Double) {
            let steps = max(1, framesPerAnimation - 1)
            for step in 0...steps {
                if step > 0 {
                    time += duration / Double(steps)
                    view.advance(to: time)
                }
                show("\(title) \(step)/\(steps)")
            }
            time += 0.001
            view.advance(to: time)
        }

        show("flow layout, 18 items")
        view.setContentOffset(Point(0, 400))
        show("scrolled to 0,400")
        try view.scrollToItem(at: IndexPath(0, 15), position: .centeredVertically)
        show("scrolled to item 0:15, centred")
        let (hit, events) = view.tap(at: Point(view.scroll.contentOffset.x + 60, view.scroll.contentOffset.y + 406))
        print("tap → \(hit.map { "\($0.element)" } ?? "nothing"): " + events.map(\.description).joined(separator: ", "))
        view.setContentOffset(.zero)
        let timing = AnimationTiming(duration: 0.3, curve: .easeInEaseOut)
        try view.performBatchUpdates(BatchUpdate([
            .insertItems(at: [IndexPath(0, 1)], items: [Item(id: "new", data: .object(["label": .string("NEW")]))]),
            .deleteItems(at: [IndexPath(0, 3)]),
        ]), animation: timing)
        animate("insert at 0:1, delete 0:3", duration: 0.3)
        let spring = AnimationTiming(duration: 0.5, curve: .spring(dampingRatio: 0.7, initialVelocity: 0))
        view.setLayout(CircleLayout(itemSize: Size(50, 50)), animation: spring)
        animate("flow → circle (spring)", duration: spring.activeDuration)
        view.setLayout(flow, animation: timing)
        animate("circle → flow", duration: 0.3)
    }
}
