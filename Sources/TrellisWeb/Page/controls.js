'use strict';
(() => {
  const mirror = window.trellisMirror;
  const stage = mirror.stage;
  const toolbar = document.getElementById('toolbar');
  // Whether the attach is read-write; input drives the session only while it is and the
  // stage shows the live session (a past moment from the timeline is read-only).
  let enabled = false;
  const driving = () => enabled && !mirror.past;
  const showDriving = () => {
    toolbar.hidden = !enabled;
    stage.classList.toggle('driving', driving());
    for (const control of toolbar.querySelectorAll('button, select')) control.disabled = mirror.past;
  };
  mirror.onAttached((readWrite) => { enabled = readWrite; showDriving(); });
  mirror.onPast(showDriving);

  // A press becomes a pan once it has moved this far (UIKit's pan recogniser waits for a
  // similar slop before it begins), so a click with a shaking hand is still a tap.
  const slop = 4;
  // The release velocity is measured over the pointer's last 100 ms, as a finger's is.
  const velocityWindow = 100;
  // While this many requests wait, pointer moves are folded into the next frame's
  // `changed` instead of queued (the bridge refuses beyond 64).
  const inFlightLimit = 8;

  const point = (event) => {
    const r = stage.getBoundingClientRect();
    return [event.clientX - r.left, event.clientY - r.top];
  };

  function send(method, params) {
    return mirror.request(method, params).then((result) => {
      if (result && 'dragging' in result) mirror.setMotion(result);
      return result;
    }, () => null);
  }

  // One pan from either source (pointer or wheel): began at a point in the view, changed
  // with the translation since then (coalesced to one request per animation frame), ended
  // with the velocity of the 100 ms before the release. Times are the events' own
  // (event.timeStamp), so the velocity is the pointer's however late the page handles them.
  function makePan(location) {
    const samples = [];
    const pan = { translation: [0, 0], scheduled: false, ended: false };
    send('gesture.pan', { phase: 'began', translation: [0, 0], location });
    pan.move = (translation, time) => {
      pan.translation = translation;
      samples.push([time, translation[0], translation[1]]);
      while (samples.length > 2 && time - samples[0][0] > velocityWindow) samples.shift();
      if (pan.scheduled) return;
      pan.scheduled = true;
      requestAnimationFrame(() => {
        pan.scheduled = false;
        if (pan.ended || mirror.waiting > inFlightLimit) return;
        send('gesture.pan', { phase: 'changed', translation: pan.translation });
      });
    };
    pan.end = (cancelled, now) => {
      pan.ended = true;
      if (cancelled) return send('gesture.pan', { phase: 'cancelled', translation: pan.translation });
      let velocity = [0, 0];
      const recent = samples.filter((s) => now - s[0] <= velocityWindow);
      if (recent.length >= 2) {
        const a = recent[0], b = recent[recent.length - 1];
        const dt = (b[0] - a[0]) / 1000;
        if (dt > 0) velocity = [(b[1] - a[1]) / dt, (b[2] - a[2]) / dt].map(clampVelocity);
      }
      return send('gesture.pan', { phase: 'ended', translation: pan.translation, velocity });
    };
    return pan;
  }

  // gesture.pan takes each component within ±1e6.
  const clampVelocity = (v) => Math.max(-1e6, Math.min(1e6, v));

  // The pointer: down catches a moving offset (gesture.touch), a move past the slop pans,
  // an up without a pan taps at the point in content coordinates.
  let press = null;
  stage.addEventListener('pointerdown', (event) => {
    if (!driving() || event.button !== 0) return;
    event.preventDefault();
    stage.setPointerCapture(event.pointerId);
    const at = point(event);
    press = { id: event.pointerId, start: at, pan: null };
    send('gesture.touch', { phase: 'down', at });
  });
  stage.addEventListener('pointermove', (event) => {
    if (!press || event.pointerId !== press.id || mirror.past) return;
    const at = point(event);
    const translation = [at[0] - press.start[0], at[1] - press.start[1]];
    if (!press.pan && Math.hypot(translation[0], translation[1]) < slop) return;
    if (!press.pan) press.pan = makePan(press.start);
    press.pan.move(translation, event.timeStamp);
  });
  const release = (event, cancelled) => {
    if (!press || event.pointerId !== press.id) return;
    const done = press;
    press = null;
    if (done.pan) {
      done.pan.end(cancelled, event.timeStamp);
    } else if (!cancelled) {
      // A press that began live and ends in the past taps nothing, but lifts its touch.
      const o = mirror.offset;
      if (!mirror.past) send('gesture.tap', { point: [done.start[0] + o[0], done.start[1] + o[1]] }).then((result) => {
        if (result && result.selected) mirror.setSelected(result.selected);
      });
      send('gesture.touch', { phase: 'up', at: done.start });
    }
  };
  stage.addEventListener('pointerup', (event) => release(event, false));
  stage.addEventListener('pointercancel', (event) => release(event, true));

  // The wheel: a run of wheel events is one pan (the wheel moves the content as a finger
  // pushing the other way), ended 120 ms after the last event with the velocity of the
  // 100 ms before that event, so a trackpad's flick flings as a finger's does and a single
  // notch of a mouse wheel (one event) just moves.
  let wheel = null;
  stage.addEventListener('wheel', (event) => {
    if (!driving()) return;
    event.preventDefault();
    const scale = event.deltaMode === 1 ? 16 : event.deltaMode === 2 ? stage.clientHeight : 1;
    let dx = event.deltaX * scale, dy = event.deltaY * scale;
    // A mouse wheel only turns vertically: over content that scrolls across only (a
    // carousel, the line layout) it scrolls across, as browsers do for such content.
    const size = mirror.contentSize, bounds = mirror.bounds;
    if (dx === 0 && size[0] > bounds[0] && size[1] <= bounds[1]) { dx = dy; dy = 0; }
    if (!wheel) wheel = { pan: makePan(point(event)), translation: [0, 0], timer: null };
    wheel.translation = [wheel.translation[0] - dx, wheel.translation[1] - dy];
    wheel.pan.move(wheel.translation, event.timeStamp);
    clearTimeout(wheel.timer);
    const current = wheel, last = event.timeStamp;
    wheel.timer = setTimeout(() => { if (wheel === current) { wheel = null; current.pan.end(false, last); } }, 120);
  }, { passive: false });

  // The toolbar works on the cells on screen, so every change is seen as it animates.
  function visibleCells() {
    const cells = [];
    for (const v of mirror.views.values()) {
      const s = v.shown;
      if (s && s.element.kind === 'cell' && !s.hidden) cells.push([s.element.section, s.element.item]);
    }
    return cells;
  }
  const pick = (list) => list[Math.floor(Math.random() * list.length)];
  let inserted = 0;
  const batch = (ops) => send('batch', { ops });

  const actions = {
    insert() {
      const at = pick(visibleCells()) || [0, 0];
      inserted += 1;
      const id = 'web-' + Date.now().toString(36) + '-' + inserted;
      batch([{ op: 'insertItems', at: [at], items: [{ id, data: { label: 'new ' + inserted } }] }]);
    },
    delete() {
      const at = pick(visibleCells());
      if (at) batch([{ op: 'deleteItems', at: [at] }]);
    },
    move() {
      const cells = visibleCells();
      if (cells.length < 2) return;
      const from = pick(cells);
      const to = pick(cells.filter((c) => c[0] !== from[0] || c[1] !== from[1]));
      batch([{ op: 'moveItem', from, to }]);
    },
    layout() {
      const choice = document.getElementById('layout-choice').value;
      const w = stage.clientWidth, h = stage.clientHeight;
      const side = Math.max(40, Math.round(Math.min(w, h) / 5));
      const size = [side, side];
      const specs = {
        flow: { type: 'flow', itemSize: size, minimumLineSpacing: 12, minimumInteritemSpacing: 12, sectionInset: [12, 12, 12, 12] },
        line: { type: 'line', itemSize: [side * 1.25, side * 1.25], minimumLineSpacing: side * 0.3,
                sectionInset: [Math.max(0, (h - side * 1.25) / 2), 0, Math.max(0, (h - side * 1.25) / 2), 0], activeDistance: side * 1.25 },
        carousel: { type: 'carousel', style: 'rotary', itemSize: size },
        coverFlow: { type: 'coverFlow', itemSize: [side * 1.5, side * 1.5] },
        circle: { type: 'circle', itemSize: [side * 0.8, side * 0.8] },
        stack: { type: 'stack', itemSize: [side * 1.5, side * 1.5] },
        springy: { type: 'springy', itemSize: size, minimumLineSpacing: 12, minimumInteritemSpacing: 12, sectionInset: [12, 12, 12, 12] },
        // Apple's "Orthogonal Sections" in small: a band of cards that pages a group at a time
        // sideways (drag inside it), then a grid section, in turn section after section.
        compositional: { type: 'compositional', provider: { rule: 'cycling' }, sections: [
          { orthogonalScrollingBehavior: 'groupPaging', interGroupSpacing: 12, contentInsets: [12, 12, 12, 12],
            group: { arrangement: 'horizontal', size: { width: { fractionalWidth: 0.7 }, height: { absolute: side * 1.5 } },
                     subitems: [{ size: { width: { fractionalWidth: 1 }, height: { fractionalHeight: 1 } } }] } },
          { contentInsets: [12, 12, 12, 12],
            group: { arrangement: 'horizontal', size: { width: { fractionalWidth: 1 }, height: { absolute: side } },
                     subitems: [{ size: { width: { absolute: side }, height: { fractionalHeight: 1 } }, contentInsets: [4, 4, 4, 4] }] } },
        ] },
      };
      if (specs[choice]) send('layout.set', { layout: specs[choice], animated: true, duration: 0.6, curve: 'easeInEaseOut' });
    },
    // One of Apple's samples (samples.js, made from the examples): the data takes the shape
    // its example reloads (items per section; several sections where the sample needs them),
    // applied as a snapshot so items kept by identifier stay, then its layout animates in.
    sample() {
      const sample = sampleChoice.value === '' ? null : pageSamples[Number(sampleChoice.value)];
      if (!sample) return;
      const sections = sample.items.map((count, s) => ({
        id: 'sample-' + s,
        items: Array.from({ length: count }, (_, i) => ({ id: 'sample-' + s + '-' + i, data: { label: s + '.' + i } })),
      }));
      send('data.apply', { sections, animated: false });
      send('layout.set', { layout: sample.layout, animated: true, duration: 0.6, curve: 'easeInEaseOut' });
    },
  };
  for (const button of toolbar.querySelectorAll('button[data-action]')) {
    button.addEventListener('click', () => { if (driving()) actions[button.dataset.action](); });
  }

  // The picker shows the session's layout, whoever set it (another page, the demo, a
  // script); choosing another switches to it. A type the list lacks is added to it.
  const choice = document.getElementById('layout-choice');
  mirror.onLayout((type) => {
    if (![...choice.options].some((o) => o.value === type)) choice.add(new Option(type, type));
    choice.value = type;
  });
  choice.addEventListener('change', () => { if (driving()) actions.layout(); });

  // The sample picker lists the samples by Apple's names; it says which one the page last
  // set while the session stays compositional, and nothing once another layout takes over.
  const pageSamples = window.trellisSamples || [];
  const sampleChoice = document.getElementById('sample-choice');
  pageSamples.forEach((s, k) => sampleChoice.add(new Option(s.name, String(k))));
  mirror.onLayout((type) => { if (type !== 'compositional') sampleChoice.value = ''; });
  sampleChoice.addEventListener('change', () => { if (driving()) actions.sample(); });
})();
