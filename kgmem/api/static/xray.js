/* kgmem recall X-ray page.
 *
 * Posts recall(..., explain: true) to this server's /graphql (the API key, if given, goes in
 * the Authorization header, as for any client) and draws the answer: hits with their factor
 * contributions as bars, channel ranks, validity, turn ids and graph path (inline SVG); the
 * dropped candidates with their reasons; stage timings. Plain JS, no build step, no external
 * files. Every text from the server is set with textContent, never parsed as HTML.
 */
(function () {
  "use strict";

  var ENDPOINT = "graphql"; // relative: /xray -> /graphql, also behind a path prefix
  var SVG_NS = "http://www.w3.org/2000/svg";
  var UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
  var QUERY = [
    "query Xray($q: String!, $ns: String, $profile: String, $dry: Boolean!) {",
    "  recall(query: $q, namespace: $ns, profile: $profile, limit: LIMIT, dry: $dry,",
    "         explain: true) {",
    "    __typename",
    "    ... on Rejected { reason code }",
    "    ... on RecallOk {",
    "      namespace skipped",
    "      hits { memoryId category turnIds }",
    "      xray {",
    "        query intent subQueries hyde queriesRun channels",
    "        timings { stage ms }",
    "        dropped { memoryId content reason detail bestScore }",
    "        hits {",
    "          memoryId content finalScore status injection validFrom validUntil episodes",
    "          contributions { factor value } factors { factor value }",
    "          channels { channel rank rawScore }",
    "          path { nodeId label name edgeType edgeConfidence }",
    "        }",
    "      }",
    "    }",
    "  }",
    "}"
  ].join("\n");
  // The limit goes in as a literal, not a variable: the API's complexity estimate counts a
  // variable page size as the largest allowed page, a literal as itself.
  function buildQuery(limit) { return QUERY.replace("LIMIT", String(limit)); }

  // --- small DOM helpers -------------------------------------------------------------------

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    setAttrs(node, attrs);
    append(node, children);
    return node;
  }

  function svg(tag, attrs, children) {
    var node = document.createElementNS(SVG_NS, tag);
    setAttrs(node, attrs);
    append(node, children);
    return node;
  }

  function setAttrs(node, attrs) {
    Object.keys(attrs || {}).forEach(function (k) {
      var v = attrs[k];
      if (v === null || v === undefined) return;
      if (k === "text") node.textContent = String(v);
      else node.setAttribute(k === "className" ? "class" : k, String(v));
    });
  }

  function append(node, children) {
    (children || []).forEach(function (c) {
      if (c === null || c === undefined) return;
      node.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
    });
  }

  function $(id) { return document.getElementById(id); }

  function num(x, digits) {
    return x === null || x === undefined ? "—" : Number(x).toFixed(digits === undefined ? 3 : digits);
  }

  function when(iso) {
    if (!iso) return null;
    var d = new Date(iso);
    return isNaN(d.getTime()) ? iso : d.toISOString().replace("T", " ").slice(0, 16) + " UTC";
  }

  function short(text, n) {
    text = String(text);
    return text.length > n ? text.slice(0, n - 1) + "…" : text;
  }

  // --- talking to /graphql -----------------------------------------------------------------

  function form() {
    var ns = $("namespace").value.trim();
    var limit = parseInt($("limit").value, 10);
    return {
      key: $("api-key").value.trim(),
      limit: isNaN(limit) ? 5 : Math.max(1, Math.min(limit, 1000)),
      variables: {
        q: $("query").value,
        ns: ns || null,
        profile: $("profile").value || null,
        dry: $("dry").checked
      }
    };
  }

  function failure(title, lines) {
    var err = new Error(title);
    err.lines = lines || [];
    return err;
  }

  async function recall(request) {
    var headers = { "Content-Type": "application/json", "Accept": "application/json" };
    if (request.key) headers["Authorization"] = "Bearer " + request.key;
    var response;
    try {
      response = await fetch(ENDPOINT, {
        method: "POST",
        headers: headers,
        credentials: "omit",
        body: JSON.stringify({
          query: buildQuery(request.limit), variables: request.variables, operationName: "Xray"
        })
      });
    } catch (e) {
      throw failure("Could not reach the server", [String(e && e.message || e)]);
    }
    var body = null;
    try { body = await response.json(); } catch (e) { body = null; }
    if (body && body.error) { // the API's own JSON errors: 401, 413, 500
      throw failure("The server refused the request (HTTP " + response.status + ")",
        [body.error.message + (body.error.code ? " [" + body.error.code + "]" : "")]);
    }
    if (body && body.errors && body.errors.length) {
      throw failure("The GraphQL request failed", body.errors.map(function (e) {
        var code = e.extensions && e.extensions.code;
        return e.message + (code ? " [" + code + "]" : "");
      }));
    }
    if (!response.ok || !body || !body.data) {
      throw failure("Unexpected answer from the server (HTTP " + response.status + ")", []);
    }
    var result = body.data.recall;
    if (!result) throw failure("The server answered without a recall result", []);
    if (result.__typename === "Rejected") {
      throw failure("The recall was rejected", [result.reason + " [" + result.code + "]"]);
    }
    return result;
  }

  // --- rendering ---------------------------------------------------------------------------

  function showError(err) {
    var box = $("error");
    box.replaceChildren(el("strong", { text: err.message }));
    (err.lines || []).forEach(function (line) { box.appendChild(el("div", { text: line })); });
    box.hidden = false;
  }

  function renderSummary(result) {
    var x = result.xray;
    var rows = [
      ["namespace", result.namespace],
      ["intent", x ? x.intent : "—"],
      ["channels searched", x && x.channels.length ? x.channels.join(", ") : "—"],
      ["sub-queries", x && x.subQueries.length ? x.subQueries.join("  |  ") : "—"],
      ["HyDE variants", x && x.hyde.length ? x.hyde.join("  |  ") : "none"],
      ["queries run", x && x.queriesRun.length ? x.queriesRun.join(", ") : "none"]
    ];
    var dl = el("dl");
    rows.forEach(function (r) {
      dl.appendChild(el("dt", { text: r[0] }));
      dl.appendChild(el("dd", { text: r[1] }));
    });
    var parts = [dl];
    if (result.skipped) {
      parts.unshift(el("p", { className: "notice", text: "No search ran: " + result.skipped }));
    }
    $("summary").replaceChildren.apply($("summary"), parts);
  }

  function factorRow(c, raw, scale) {
    var width = Math.min(50, (Math.abs(c.value) / scale) * 50);
    var sign = c.value < 0 ? "neg" : "pos";
    var title = c.factor + ": contribution " + num(c.value, 4) +
      (raw === undefined ? "" : ", raw factor " + num(raw, 4));
    return el("div", { className: "factor", "data-factor": c.factor, title: title }, [
      el("span", { className: "name", text: c.factor }),
      el("span", { className: "track" }, [
        el("span", { className: "bar " + sign, "data-width": width.toFixed(2) })
      ]),
      el("span", { className: "value", text: (c.value > 0 ? "+" : "") + num(c.value, 3) })
    ]);
  }

  function renderFactors(hit, scale) {
    var raw = {};
    hit.factors.forEach(function (f) { raw[f.factor] = f.value; });
    var nonZero = hit.contributions.filter(function (c) { return c.value !== 0; });
    nonZero.sort(function (a, b) { return Math.abs(b.value) - Math.abs(a.value); });
    var zero = hit.contributions.filter(function (c) { return c.value === 0; });
    var box = el("div", { className: "factors" },
      nonZero.map(function (c) { return factorRow(c, raw[c.factor], scale); }));
    var parts = [el("h3", { text: "Factor contributions" }), box];
    if (zero.length) {
      parts.push(el("div", { className: "zeros", text: "0 from: " +
        zero.map(function (c) { return c.factor; }).join(", ") }));
    }
    return el("div", {}, parts);
  }

  function nodeText(step, hit) {
    if (step.nodeId === hit.memoryId) return "this memory";
    if (UUID.test(step.name)) return "memory " + step.name.slice(0, 8);
    return short(step.name, 18);
  }

  function renderPath(hit, index) {
    var steps = hit.path;
    var wrap = el("div", { className: "path" }, [el("h3", { text: "Graph path" })]);
    if (!steps.length) {
      wrap.appendChild(el("p", { className: "no-path", text: "No graph path: found by direct search." }));
      return wrap;
    }
    var W = 124, H = 40, GAP = 96, PAD = 6, TOP = 20;
    var width = PAD * 2 + steps.length * W + (steps.length - 1) * GAP;
    var marker = "arrow-" + index;
    var root = svg("svg", {
      className: "path-svg", width: width, height: TOP + H + 24,
      viewBox: "0 0 " + width + " " + (TOP + H + 24),
      role: "img", "aria-label": "graph path of hit " + (index + 1)
    }, [svg("defs", {}, [svg("marker", {
      id: marker, viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 7, markerHeight: 7,
      orient: "auto-start-reverse"
    }, [svg("path", { d: "M0,0 L10,5 L0,10 z", fill: "#6b7690" })])])]);
    steps.forEach(function (step, i) {
      var x = PAD + i * (W + GAP);
      if (i > 0) {
        var x1 = x - GAP + 2, x2 = x - 3, y = TOP + H / 2, conf = step.edgeConfidence;
        var strength = conf === null || conf === undefined ? 0.6 : Math.max(0.15, conf);
        root.appendChild(svg("g", { className: "edge" }, [
          svg("line", { x1: x1, y1: y, x2: x2, y2: y, "stroke-width": 1 + 2 * strength,
            "stroke-opacity": strength, "marker-end": "url(#" + marker + ")" }),
          svg("text", { x: (x1 + x2) / 2, y: y - 8, "text-anchor": "middle",
            text: step.edgeType || "related" }),
          svg("text", { className: "conf", x: (x1 + x2) / 2, y: y + 16, "text-anchor": "middle",
            text: conf === null || conf === undefined ? "conf ?" : "conf " + num(conf, 2) })
        ]));
      }
      var self = step.nodeId === hit.memoryId;
      var kind = step.label && step.label !== "node" ? step.label : (UUID.test(step.name) ? "memory" : "entity");
      root.appendChild(svg("g", { className: "node" + (self ? " self" : "") }, [
        svg("title", { text: step.label + " " + step.name + " (" + step.nodeId + ")" }),
        svg("rect", { x: x, y: TOP, width: W, height: H, rx: 8 }),
        svg("text", { className: "kind", x: x + 8, y: TOP + 13, text: kind }),
        svg("text", { x: x + 8, y: TOP + 30, text: nodeText(step, hit) })
      ]));
    });
    wrap.appendChild(root);
    return wrap;
  }

  function renderHit(hit, index, plain, scale) {
    var meta = [
      el("span", { className: "chip status-" + (hit.status === "active" ? "active" : "other"),
        text: "status " + hit.status }),
      el("span", { className: "chip validity", text: "valid " + (when(hit.validFrom) || "always") +
        " → " + (when(hit.validUntil) || "open") })
    ];
    if (plain && plain.category) meta.push(el("span", { className: "chip", text: plain.category }));
    if (hit.injection) meta.push(el("span", { className: "chip", text: "injection " + hit.injection }));
    hit.channels.forEach(function (c) {
      meta.push(el("span", { className: "chip channel", title: "raw score " + num(c.rawScore, 4),
        text: c.channel + " #" + c.rank }));
    });
    var turns = plain && plain.turnIds.length ? plain.turnIds : hit.episodes;
    var turnLine = el("div", { className: "meta turns" }, [el("span", { className: "label", text: "turns:" })]
      .concat(turns.length ? turns.map(function (t) { return el("code", { className: "chip", text: t }); })
        : [el("span", { className: "empty", text: "none" })]));
    return el("li", { className: "hit", "data-memory-id": hit.memoryId }, [
      el("div", { className: "hit-head" }, [
        el("span", { className: "rank", text: "#" + (index + 1) }),
        el("span", { className: "content", text: hit.content }),
        el("span", { className: "score", title: "final score" }, [num(hit.finalScore, 3),
          el("small", { text: "final score" })])
      ]),
      el("div", { className: "meta" }, meta),
      turnLine,
      el("div", { className: "hit-body" }, [renderFactors(hit, scale), renderPath(hit, index)])
    ]);
  }

  function renderHits(result) {
    var list = $("hits");
    var hits = result.xray ? result.xray.hits : [];
    var plain = {};
    result.hits.forEach(function (h) { plain[h.memoryId] = h; });
    var scale = 0;
    hits.forEach(function (h) {
      h.contributions.forEach(function (c) { scale = Math.max(scale, Math.abs(c.value)); });
    });
    scale = scale || 1;
    list.replaceChildren.apply(list, hits.map(function (h, i) {
      return renderHit(h, i, plain[h.memoryId], scale);
    }));
    if (!hits.length) list.appendChild(el("li", { className: "empty", text: "No hits." }));
    // widths are set through the CSSOM (allowed by the page's CSP), not inline style attributes
    list.querySelectorAll(".bar[data-width]").forEach(function (bar) {
      bar.style.width = bar.getAttribute("data-width") + "%";
    });
  }

  function renderDropped(result) {
    var dropped = result.xray ? result.xray.dropped : [];
    var box = $("dropped");
    if (!dropped.length) {
      box.replaceChildren(el("p", { className: "empty", text: "No candidate was dropped." }));
      return;
    }
    var rows = dropped.map(function (d) {
      return el("tr", { "data-memory-id": d.memoryId }, [
        el("td", { text: d.content || d.memoryId }),
        el("td", { className: "reason", text: d.reason }),
        el("td", { text: d.detail }),
        el("td", { className: "num", text: num(d.bestScore, 3) })
      ]);
    });
    box.replaceChildren(el("table", {}, [
      el("thead", {}, [el("tr", {}, ["candidate", "reason", "detail", "best score"].map(
        function (h) { return el("th", { text: h }); }))]),
      el("tbody", {}, rows)
    ]));
  }

  function renderTimings(result) {
    var timings = result.xray ? result.xray.timings : [];
    var box = $("timings");
    var total = timings.reduce(function (s, t) { return s + t.ms; }, 0);
    var most = timings.reduce(function (m, t) { return Math.max(m, t.ms); }, 0) || 1;
    var rows = timings.map(function (t) {
      var bar = el("span", { className: "bar" });
      bar.style.width = ((t.ms / most) * 100).toFixed(2) + "%";
      return el("div", { className: "timing", "data-stage": t.stage }, [
        el("span", { text: t.stage }), el("span", { className: "track" }, [bar]),
        el("span", { className: "value", text: num(t.ms, 1) + " ms" })
      ]);
    });
    rows.push(el("div", { className: "timing total" }, [
      el("span", { text: "total" }), el("span"), el("span", { className: "value", text: num(total, 1) + " ms" })
    ]));
    box.replaceChildren.apply(box, rows);
  }

  function render(result) {
    renderSummary(result);
    renderHits(result);
    renderDropped(result);
    renderTimings(result);
    $("result").hidden = false;
  }

  async function onSubmit(event) {
    event.preventDefault();
    var button = $("run");
    $("error").hidden = true;
    $("result").hidden = true;
    $("status").textContent = "Running recall…";
    button.disabled = true;
    var t0 = performance.now();
    try {
      var result = await recall(form());
      render(result);
      var n = result.xray ? result.xray.hits.length : 0;
      $("status").textContent = n + " hit" + (n === 1 ? "" : "s") + " in " +
        Math.round(performance.now() - t0) + " ms (round trip)";
    } catch (err) {
      $("status").textContent = "";
      showError(err);
    } finally {
      button.disabled = false;
    }
  }

  function prefill() { // ?q=...&ns=...&profile=... (never the key: it would end up in logs)
    var params = new URLSearchParams(window.location.search);
    if (params.get("q")) $("query").value = params.get("q");
    if (params.get("ns")) $("namespace").value = params.get("ns");
    if (params.get("profile")) $("profile").value = params.get("profile");
  }

  document.addEventListener("DOMContentLoaded", function () {
    prefill();
    $("xray-form").addEventListener("submit", onSubmit);
  });
})();
