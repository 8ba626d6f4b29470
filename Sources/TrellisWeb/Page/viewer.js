'use strict';
(() => {
  const query = new URLSearchParams(location.search);
  const requested = query.get('session') || '';
  // trellis-web refuses every request without its token: the page passes on the one in
  // its URL (without one, the cookie the browser keeps carries it).
  const token = query.get('token') || '';
  const withToken = (path, params) => {
    const p = new URLSearchParams(params);
    if (token) p.set('token', token);
    const q = p.toString();
    return q ? path + '?' + q : path;
  };
  const stage = document.getElementById('stage');
  const text = (id) => document.getElementById(id);

  // View id → { el, label, reuseId, shown (the scene view, null while in its pool), order }.
  const views = new Map();
  let session = requested;
  let seq = null;
  let offset = [0, 0];
  let contentSize = [0, 0];
  let boundsSize = [0, 0];
  // Orthogonal sections scrolled across (compositional layout): section index → offset. The
  // views' frames already include them; the page keeps them to say where each band stands.
  let orthogonal = new Map();
  const orthogonalMap = (list) => new Map((list || []).map((e) => [e.section, e.offset]));
  const frameTimes = [];
  // The socket of the current attach, and the page's requests waiting for their replies
  // (by id; the attach itself is the bridge's request, answered first).
  let socket = null;
  let attached = false;
  let readOnly = true;
  let nextId = 1;
  const waiting = new Map();
  // Item ids in selection order, from selection.changed and tap replies.
  let selected = new Set();
  // From the scroll notifications and session.info: what moves the offset.
  let motion = { dragging: false, decelerating: false };
  let pool = { pooled: 0, created: 0, reused: 0 };
  // The session's layout type, from session.info: after attaching, every second, and at
  // once when a transition completes (whoever changed it).
  let layout = null;
  const attachedHooks = [];
  const layoutHooks = [];
  // Called with the scene's time (ms) after the keyframe and after each frame is applied.
  const frameHooks = [];
  // Called after the selection changed (whoever changed it).
  const selectionHooks = [];
  // The timeline (timeline.js) shows a recorded past moment: the stage draws that scene and
  // live frames are not drawn (their seq still counts) until the page attaches again.
  let past = false;
  const pastHooks = [];

  // Sends one request on the attach's socket; the promise holds the reply (result or error).
  // A `quiet` request's error is not shown as a note (the timeline asks every second whether
  // the session is recorded, and "not recorded" is no problem).
  function request(method, params, quiet) {
    if (!socket || !attached) return Promise.reject(new Error('not attached'));
    const id = nextId++;
    socket.send(JSON.stringify({ jsonrpc: '2.0', id, method, params: params || {} }));
    return new Promise((resolve, reject) => waiting.set(id, { resolve, reject, quiet: !!quiet }));
  }

  function setPast(value) {
    if (value === past) return;
    past = value;
    stage.classList.toggle('past', past);
    if (!past) delete stage.dataset.past;
    // The status bar says so too: a page in the past drives nothing.
    if (attached) showState(past ? 'showing the past (read-only)' : readOnly ? 'watching (read-only)' : 'watching and driving', false);
    for (const hook of pastHooks) hook(past);
  }

  // The debug layer (session.attach's debug): shape id → { shape, el } while the toggle is on.
  const SVG = 'http://www.w3.org/2000/svg';
  const debugShapes = new Map();
  let debugOn = false;
  const overlay = document.createElementNS(SVG, 'svg');
  overlay.id = 'debug-layer';
  overlay.hidden = true;
  overlay.innerHTML = '<defs><marker id="debug-arrowhead" viewBox="0 0 6 6" refX="6" refY="3" markerWidth="6" markerHeight="6" orient="auto-start-reverse"><path d="M0,0 L6,3 L0,6 z" fill="context-stroke"/></marker></defs>';
  stage.appendChild(overlay);
  // Shapes on a view (a shape's `view`: its geometry in the view's own coordinates, origin at
  // its centre) are drawn in an SVG of their own per view, placed and transformed as the view's
  // element is (the same matrix3d about the same centre), so an item's outline sits on its view
  // under a turn or a perspective. View id → that SVG; they live in one layer over the views.
  const viewOverlays = new Map();
  const viewLayer = document.createElement('div');
  viewLayer.id = 'debug-view-layer';
  viewLayer.hidden = true;
  stage.appendChild(viewLayer);

  // Kept on window so a test driving a browser can read what the page holds, and so the
  // controls can use the same socket.
  window.trellisMirror = {
    views, request, stage, showNote,
    get seq() { return seq; }, get session() { return session; }, get offset() { return offset; },
    get contentSize() { return contentSize; }, get bounds() { return boundsSize; },
    get orthogonal() { return orthogonal; },
    get readOnly() { return readOnly; }, get attached() { return attached; },
    get waiting() { return waiting.size; }, get motion() { return motion; },
    setMotion(m) { motion = { dragging: !!m.dragging, decelerating: !!m.decelerating }; showStatus(); },
    get selected() { return selected; },
    get debugShapes() { return debugShapes; }, get debugOn() { return debugOn; },
    setSelected(ids) {
      selected = new Set(ids);
      for (const v of views.values()) if (v.shown) draw(v);
      for (const hook of selectionHooks) hook();
    },
    onSelection(hook) { selectionHooks.push(hook); },
    onAttached(hook) { attachedHooks.push(hook); },
    get layout() { return layout; },
    onLayout(hook) { layoutHooks.push(hook); if (layout) hook(layout); },
    onFrame(hook) { frameHooks.push(hook); },
    get past() { return past; },
    onPast(hook) { pastHooks.push(hook); },
    // Draws a past moment's scene (session.seek's `scene`, query.scene's shape) in place of
    // the live one; `frame` marks the stage (data-past) for whoever reads the page.
    showPast(scene, frame) {
      setPast(true);
      drawScene(scene, []);
      stage.dataset.past = frame;
    },
    // Back to the live frames: the page attaches again (with the debug layer if it was on),
    // and the keyframe replaces the past scene; frames after it follow on from it.
    backToLive() {
      return request('session.attach', { debug: debugOn }).then((result) => {
        setPast(false);
        applyKeyframe(result);
      });
    },
  };

  function setLayout(type) {
    if (typeof type !== 'string' || type === layout) return;
    layout = type;
    text('status-layout').textContent = type;
    for (const hook of layoutHooks) hook(type);
  }

  function connect() {
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const path = withToken('/ws', requested ? { session: requested } : {});
    const ws = new WebSocket(scheme + '//' + location.host + path);
    socket = ws;
    let problem = null;
    let listing = false;
    let opened = false;
    ws.onopen = () => { opened = true; };
    ws.onmessage = (event) => {
      const message = JSON.parse(event.data);
      if (message.bridge) {
        problem = message.bridge.message;
        listing = message.bridge.kind === 'noSession';
        if (listing) showSessions(); else showState(problem, true);
      } else if ('id' in message && !attached) {
        if (message.error) {
          problem = message.error.message;
          showState(problem, true);
        } else {
          // A new attach starts live, whatever the page showed before it.
          setPast(false);
          applyKeyframe(message.result);
          attached = true;
          readOnly = message.result.readOnly !== false;
          showState(readOnly ? 'watching (read-only)' : 'watching and driving', false);
          for (const hook of attachedHooks) hook(!readOnly);
          refreshInfo();
          // A page that showed the debug layer asks for it again after reconnecting.
          if (debugOn) request('session.attach', { debug: true }).then(applyKeyframe, () => {});
        }
      } else if ('id' in message) {
        const pending = waiting.get(message.id);
        waiting.delete(message.id);
        if (message.error) {
          if (!pending || !pending.quiet) showNote(message.error.message);
          if (pending) pending.reject(new Error(message.error.message));
        } else if (pending) {
          pending.resolve(message.result);
        }
      } else if (message.method === 'frame') {
        applyFrame(message.params);
      } else {
        notified(message, ws);
      }
    };
    // Whatever ended it (trellisd missing, an unknown session, trellis-web stopped), the
    // page says so and tries again a second later; a new attach starts from a keyframe.
    ws.onclose = () => {
      attached = false;
      for (const pending of waiting.values()) pending.reject(new Error('the connection closed'));
      waiting.clear();
      for (const hook of attachedHooks) hook(false);
      const retry = () => setTimeout(connect, listing ? 2000 : 1000);
      const say = (why) => { showState(why + ' — retrying every second', true); retry(); };
      if (listing) retry();
      else if (problem || opened) say(problem || 'trellis-web is not answering');
      // Refused before it opened: a browser does not tell the page why, so the page asks
      // the same URL over plain HTTP, which trellis-web answers with the refusal's reason.
      else fetch(path, { cache: 'no-store' })
        .then((r) => (r.status === 400 || r.status === 403 ? r.text() : ''))
        .then((why) => say(why.trim() || 'trellis-web is not answering'), () => say('trellis-web is not answering'));
    };
  }

  // The notifications other than frames: selection, the scroll's phases, a closed session.
  function notified(message, ws) {
    const p = message.params || {};
    switch (message.method) {
      case 'selection.changed': window.trellisMirror.setSelected(p.selected || []); break;
      case 'scroll.willBeginDragging': window.trellisMirror.setMotion({ dragging: true }); break;
      case 'scroll.didEndDragging': window.trellisMirror.setMotion({ decelerating: p.decelerate }); break;
      case 'scroll.didEndDecelerating': window.trellisMirror.setMotion({}); break;
      case 'transition.completed': askInfo(); break;
      case 'session.closed':
        showNote('session ' + p.session + ' closed (' + p.reason + ')');
        ws.close();
        break;
    }
  }

  // The pool figures (stats), the scroll state and the layout (session.info) every second:
  // none is in the frames, and both are cheap reads that publish nothing.
  function refreshInfo() {
    if (!attached) return;
    request('stats', {}).then((stats) => {
      const sum = { pooled: 0, created: 0, reused: 0 };
      for (const counts of Object.values(stats.pool || {})) {
        sum.pooled += counts.pooled; sum.created += counts.created; sum.reused += counts.reused;
      }
      pool = sum;
      showStatus();
    }, () => {});
    askInfo();
  }

  function askInfo() {
    if (!attached) return;
    request('session.info', {}).then((info) => {
      if (info.scroll) window.trellisMirror.setMotion(info.scroll);
      setLayout(info.layout);
      // The selection as it is now (a page that attached late has seen no selection.changed).
      const ids = info.selected || [];
      if (ids.length !== selected.size || ids.some((id) => !selected.has(id))) window.trellisMirror.setSelected(ids);
    }, () => {});
  }
  setInterval(refreshInfo, 1000);

  // The sessions trellisd has, each a link to its page, while the URL names none.
  function showSessions() {
    document.body.classList.add('listing');
    showState('choose a session', false);
    fetch(withToken('/sessions', {}), { cache: 'no-store' })
      .then((r) => (r.ok ? r.json() : r.text().then((why) => ({ refused: why.trim() })))).then((list) => {
      const body = text('sessions-body');
      body.replaceChildren();
      if (list.refused) { showState(list.refused, true); return; }
      if (list.bridge) { showState(list.bridge.message, true); return; }
      for (const s of list.sessions || []) {
        const row = document.createElement('tr');
        const link = document.createElement('a');
        link.href = withToken('/', { session: s.name });
        link.textContent = s.name;
        const cells = [link, s.layout, s.items, s.sections, s.viewers, s.clock];
        for (const c of cells) {
          const td = document.createElement('td');
          if (c instanceof Node) td.appendChild(c); else td.textContent = String(c);
          row.appendChild(td);
        }
        body.appendChild(row);
      }
      text('sessions-empty').hidden = (list.sessions || []).length > 0;
    }, () => showState('trellis-web is not answering', true));
  }

  function applyKeyframe(result) {
    session = result.session;
    seq = result.seq;
    const scene = result.keyframe;
    drawScene(scene, (result.debug && result.debug.shapes) || []);
    showStatus();
    for (const hook of frameHooks) hook(scene.time);
  }

  // Replaces everything on the stage with `scene` (a keyframe, or a past moment) and its
  // debug shapes.
  function drawScene(scene, shapes) {
    for (const v of views.values()) v.el.remove();
    views.clear();
    for (const d of debugShapes.values()) d.el.remove();
    debugShapes.clear();
    for (const o of viewOverlays.values()) o.svg.remove();
    viewOverlays.clear();
    for (const shape of shapes) drawShape(shape);
    setScroll(scene.contentOffset, scene.bounds, scene.contentSize);
    orthogonal = orthogonalMap(scene.orthogonal);
    scene.views.forEach((shown, order) => bind(create(shown.view, shown.reuseId), shown, order));
  }

  // In the order the protocol gives: destroyed, unbound, created, changed, bound, then the
  // scroll values (a new offset moves every bound view on screen).
  function applyFrame(p) {
    seq = p.seq;
    // In the past the stage keeps the past scene: the frame is counted, not drawn (the way
    // back attaches again, so nothing is lost by not applying it).
    if (past) { showStatus(); return; }
    for (const id of p.destroyed || []) {
      const v = views.get(id);
      if (v) { v.el.remove(); views.delete(id); }
      placeOverlay(id);
    }
    for (const id of p.unbound || []) {
      const v = views.get(id);
      if (v) { v.shown = null; v.el.style.display = 'none'; }
      placeOverlay(id);
    }
    for (const c of p.created || []) create(c.view, c.reuseId);
    for (const c of p.changed || []) change(c);
    for (const b of p.bound || []) bind(views.get(b.view) || create(b.view, b.reuseId), b, b.order);
    if (p.contentSize) contentSize = p.contentSize;
    if (p.orthogonal) orthogonal = orthogonalMap(p.orthogonal);
    if (p.contentOffset || p.bounds) {
      setScroll(p.contentOffset, p.bounds);
      for (const v of views.values()) if (v.shown) place(v);
    }
    if (p.debug) {
      for (const id of p.debug.removed || []) {
        const d = debugShapes.get(id);
        if (d) { d.el.remove(); debugShapes.delete(id); }
      }
      for (const shape of p.debug.shapes || []) drawShape(shape);
      for (const [id, o] of viewOverlays) {
        if (o.svg.childElementCount === 0) { o.svg.remove(); viewOverlays.delete(id); }
      }
    }
    const now = performance.now();
    frameTimes.push(now);
    showStatus();
    for (const hook of frameHooks) hook(p.time);
  }

  function create(id, reuseId) {
    const el = document.createElement('div');
    el.className = 'view';
    el.dataset.view = id;
    el.style.display = 'none';
    const label = document.createElement('span');
    el.appendChild(label);
    stage.appendChild(el);
    const v = { id, el, label, reuseId, shown: null, order: 0 };
    views.set(id, v);
    return v;
  }

  function bind(v, shown, order) {
    v.shown = shown;
    v.reuseId = shown.reuseId;
    v.order = order;
    draw(v);
  }

  function change(c) {
    const v = views.get(c.view);
    if (!v || !v.shown) return;
    const s = v.shown;
    if ('frame' in c) s.frame = c.frame;
    if ('alpha' in c) s.alpha = c.alpha;
    if ('zIndex' in c) s.zIndex = c.zIndex;
    if ('hidden' in c) s.hidden = c.hidden;
    if ('transform' in c) s.transform = c.transform;
    if ('element' in c) s.element = c.element;
    if ('id' in c) {
      s.element = Object.assign({}, s.element);
      if (c.id === null) delete s.element.id; else s.element.id = c.id;
    }
    if ('data' in c) { if (c.data === null) delete s.data; else s.data = c.data; }
    if ('order' in c) v.order = c.order;
    draw(v);
  }

  function setScroll(contentOffset, bounds, size) {
    if (contentOffset) offset = contentOffset;
    if (size) contentSize = size;
    if (bounds) {
      boundsSize = bounds;
      stage.style.width = bounds[0] + 'px';
      stage.style.height = bounds[1] + 'px';
    }
    // The overlay shows the visible rect: shapes keep their content coordinates.
    overlay.setAttribute('viewBox', offset[0] + ' ' + offset[1] + ' ' + boundsSize[0] + ' ' + boundsSize[1]);
  }

  // One debug shape as an SVG element (made or updated in place), in its kind's colour: the
  // same palette as the terminal's and the SVG pictures' (DebugStyle).
  const debugColours = {
    collision: '#0a84ff', centerOfMass: '#0a84ff', velocity: '#34c759', force: '#34c759',
    bounds: '#8e8e93', content: '#8e8e93', boundary: '#ff9500', attachment: '#af52de', anchor: '#af52de',
    axis: '#af52de', range: '#af52de', snap: '#ff2d55', field: '#32ade6', fieldArrow: '#32ade6',
    contact: '#ff3b30', rubberBand: '#ff3b30', target: '#ffcc00',
  };
  const dashed = new Set(['bounds', 'content', 'target', 'field', 'range', 'axis']);
  function drawShape(shape) {
    const old = debugShapes.get(shape.id);
    if (old) old.el.remove();
    const g = document.createElementNS(SVG, 'g');
    g.dataset.id = shape.id;
    g.dataset.kind = shape.kind;
    g.setAttribute('class', 'debug-' + shape.kind);
    const colour = debugColours[shape.kind] || '#ff00ff';
    const el = (name, attrs) => {
      const e = document.createElementNS(SVG, name);
      for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
      g.appendChild(e);
      return e;
    };
    const pairs = (a) => { const out = []; for (let i = 0; i + 1 < a.length; i += 2) out.push(a[i] + ',' + a[i + 1]); return out.join(' '); };
    const stroke = { fill: 'none', stroke: colour, 'stroke-width': 1 };
    if (dashed.has(shape.kind)) stroke['stroke-dasharray'] = '4 3';
    let at = null;
    if (shape.polygon) { el('polygon', Object.assign({ points: pairs(shape.polygon) }, stroke)); at = shape.polygon; }
    else if (shape.polyline) { el('polyline', Object.assign({ points: pairs(shape.polyline) }, stroke)); at = shape.polyline; }
    else if (shape.ellipse) {
      const [cx, cy, rx, ry] = shape.ellipse;
      el('ellipse', Object.assign({ cx, cy, rx, ry }, stroke));
      at = [cx, cy - ry];
    } else if (shape.point) {
      el('circle', { cx: shape.point[0], cy: shape.point[1], r: shape.kind === 'contact' ? 3 : 2, fill: colour });
      at = shape.point;
    } else if (shape.arrow) {
      const [x1, y1, x2, y2] = shape.arrow;
      el('line', Object.assign({ x1, y1, x2, y2, 'marker-end': 'url(#debug-arrowhead)' }, stroke));
      at = shape.arrow;
    }
    if (shape.label && at) el('text', { x: at[0] + 2, y: at[1] - 2, fill: colour }).textContent = shape.label;
    if (shape.view === undefined) overlay.appendChild(g); else overlayOf(shape.view).inner.appendChild(g);
    debugShapes.set(shape.id, { shape, el: g });
  }

  // The SVG a view's shapes are drawn in: its user space is the view's, origin at the centre.
  function overlayOf(viewId) {
    let o = viewOverlays.get(viewId);
    if (!o) {
      const svg = document.createElementNS(SVG, 'svg');
      svg.setAttribute('class', 'debug-on-view');
      svg.dataset.view = viewId;
      const inner = document.createElementNS(SVG, 'g');
      svg.appendChild(inner);
      viewLayer.appendChild(svg);
      o = { svg, inner };
      viewOverlays.set(viewId, o);
      placeOverlay(viewId);
    }
    return o;
  }

  // Places a view's debug SVG where the view's element is, with its size and transform; hidden
  // while the view is not shown.
  function placeOverlay(viewId) {
    const o = viewOverlays.get(viewId);
    if (!o) return;
    const v = views.get(viewId);
    const st = o.svg.style;
    if (!v || !v.shown || v.shown.hidden) { st.display = 'none'; return; }
    const f = v.shown.frame, s = v.shown;
    st.display = '';
    st.left = (f[0] - offset[0]) + 'px';
    st.top = (f[1] - offset[1]) + 'px';
    st.width = f[2] + 'px';
    st.height = f[3] + 'px';
    st.transform = s.transform && !isIdentity(s.transform) ? matrix3d(s.transform) : 'none';
    o.inner.setAttribute('transform', 'translate(' + f[2] / 2 + ' ' + f[3] / 2 + ')');
  }

  // The toggle attaches again, with or without the layer: its keyframe replaces what the
  // page holds, and a page that hides the layer costs the session nothing for it.
  const toggle = document.getElementById('debug-toggle');
  toggle.addEventListener('change', () => {
    const wanted = toggle.checked;
    request('session.attach', { debug: wanted }).then((result) => {
      debugOn = wanted;
      overlay.hidden = !wanted;
      viewLayer.hidden = !wanted;
      // The attach is a live one: a page in the past comes back with it.
      setPast(false);
      applyKeyframe(result);
    }, (error) => { toggle.checked = debugOn; showNote('debug layer: ' + error.message); });
  });

  // Frames are in content coordinates; the stage shows the bounds at the content offset.
  function place(v) {
    const f = v.shown.frame;
    v.el.style.left = (f[0] - offset[0]) + 'px';
    v.el.style.top = (f[1] - offset[1]) + 'px';
    placeOverlay(v.id);
  }

  function draw(v) {
    const s = v.shown;
    const st = v.el.style;
    st.display = '';
    place(v);
    st.width = s.frame[2] + 'px';
    st.height = s.frame[3] + 'px';
    st.opacity = s.alpha;
    // The server's drawing order already sorts by zIndex (then the layout's order), so
    // stacking by it gives zIndex its meaning and keeps equal zIndex in the server's order.
    st.zIndex = v.order;
    v.el.dataset.zIndex = s.zIndex;
    v.el.classList.toggle('selected', s.element.id !== undefined && selected.has(s.element.id));
    st.visibility = s.hidden ? 'hidden' : 'visible';
    // Identity comes as 16 numbers when a transform ends; 'none' spares the browser a
    // compositing layer per view.
    st.transform = s.transform && !isIdentity(s.transform) ? matrix3d(s.transform) : 'none';
    placeOverlay(v.id);
    st.background = colour(s);
    v.label.textContent = label(s);
  }

  // Core Animation's CATransform3D acts on row vectors, p' = p·M, and trellisd lists it row
  // by row (m11 m12 m13 m14 m21 … m44). CSS matrix3d acts on column vectors, p' = N·p, and
  // takes N column by column. N is M transposed, and M transposed listed column by column is
  // M listed row by row: the 16 numbers go in as given. Checked on a rotation by θ about z:
  // CATransform3DMakeRotation gives m11 = cos, m12 = sin, m21 = −sin, m22 = cos, so
  // x' = x·cos − y·sin, y' = x·sin + y·cos; matrix3d(cos, sin, 0, 0, −sin, cos, 0, 0, …) puts
  // cos, sin in N's first column and −sin, cos in its second, the same x' and y', which is
  // CSS's own rotate(θ) (clockwise on screen, y down, as UIKit's). Translation (m41 m42 m43)
  // lands in N's fourth column and perspective (m34 = −1/d) in its fourth row, where CSS's
  // translate3d() and perspective(d) put them; both turn about the element's centre
  // (transform-origin 50% 50% 0), as a layer turns about its anchor point.
  function matrix3d(m) {
    return 'matrix3d(' + m.join(',') + ')';
  }

  const identity = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
  function isIdentity(m) {
    return m.every((value, index) => value === identity[index]);
  }

  // data.color when the browser reads it as a colour, else a colour from the reuse
  // identifier: the hue from FNV-1a of its UTF-8 bytes, as the terminal and SVG pictures
  // choose it, so one cell looks alike in all three.
  function colour(s) {
    const named = s.data && typeof s.data.color === 'string' ? s.data.color : null;
    if (named && CSS.supports('color', named)) return named;
    return hashedColour(s.reuseId);
  }

  const hashed = new Map();
  const utf8 = new TextEncoder();
  function hashedColour(key) {
    let colour = hashed.get(key);
    if (colour) return colour;
    let h = 2166136261;
    for (const byte of utf8.encode(key)) h = Math.imul(h ^ byte, 16777619) >>> 0;
    colour = 'hsl(' + (h % 360) + ', 55%, 65%)';
    hashed.set(key, colour);
    return colour;
  }

  // data.label (a string or a number), else the item id, else the element's kind.
  function label(s) {
    const l = s.data ? s.data.label : undefined;
    if (typeof l === 'string' || typeof l === 'number') return String(l);
    if (s.element.id !== undefined) return s.element.id;
    return s.element.elementKind || s.element.kind;
  }

  function showStatus() {
    const now = performance.now();
    while (frameTimes.length && now - frameTimes[0] > 1000) frameTimes.shift();
    let bound = 0;
    for (const v of views.values()) if (v.shown) bound++;
    text('status-session').textContent = session || '–';
    text('status-seq').textContent = seq === null ? '–' : seq;
    text('status-views').textContent = bound;
    text('status-fps').textContent = frameTimes.length;
    text('status-pooled').textContent = pool.pooled;
    text('status-created').textContent = pool.created;
    text('status-reused').textContent = pool.reused;
    text('status-motion').textContent =
      motion.dragging ? 'dragging' : motion.decelerating ? 'decelerating' : 'at rest';
    stage.dataset.seq = seq === null ? '' : seq;
  }

  function showState(message, problem) {
    const el = text('status-state');
    el.textContent = message;
    el.classList.toggle('problem', problem);
  }

  // A refusal or error from a request, shown for a few seconds beside the state.
  let noteTimer = null;
  function showNote(message) {
    const el = text('status-note');
    el.textContent = message;
    clearTimeout(noteTimer);
    noteTimer = setTimeout(() => { el.textContent = ''; }, 4000);
  }

  // Frames per second falls back to 0 when nothing moves (an idle session sends nothing).
  setInterval(showStatus, 500);
  connect();
})();
