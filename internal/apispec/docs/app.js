// The /docs page: renders the service's own OpenAPI document (openapi.json,
// served beside this page) with no library and nothing from another host, so
// the docs work on a floor network. Everything shown is text from the spec,
// escaped before it is written into the page.
"use strict";
(function () {
  var nav = document.getElementById("nav");
  var main = document.getElementById("main");
  var spec;

  function esc(s) {
    return String(s).replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
    });
  }
  // md renders the little markdown the spec's texts use: paragraphs and
  // `code` spans.
  function md(s) {
    if (!s) return "";
    return s.split(/\n{2,}/).map(function (p) {
      return "<p>" + esc(p).replace(/`([^`]+)`/g, "<code>$1</code>") + "</p>";
    }).join("");
  }
  function deref(s) {
    var seen = 0;
    while (s && s.$ref && seen++ < 20) {
      var parts = s.$ref.replace(/^#\//, "").split("/");
      var t = spec;
      parts.forEach(function (p) { t = t && t[p]; });
      s = t;
    }
    return s || {};
  }
  function refName(s) { return s && s.$ref ? s.$ref.split("/").pop() : ""; }
  function typeOf(s) {
    var name = refName(s);
    var d = deref(s);
    var t = Array.isArray(d.type) ? d.type.join(" | ") : (d.type || (d.oneOf ? "one of" : d.anyOf ? "any of" : ""));
    if (t === "array" && d.items) t = "array of " + (refName(d.items) || typeOf(d.items));
    if (d.format) t += " (" + d.format + ")";
    return name ? name : t;
  }
  function constraints(d) {
    var out = [];
    if (d.enum) out.push("one of: " + d.enum.map(function (e) { return "<code>" + esc(e) + "</code>"; }).join(", "));
    [["minimum", "min"], ["maximum", "max"], ["minLength", "min length"], ["maxLength", "max length"],
     ["minItems", "min items"], ["maxItems", "max items"], ["pattern", "pattern"], ["default", "default"]].forEach(function (k) {
      if (d[k[0]] !== undefined) out.push(k[1] + " <code>" + esc(JSON.stringify(d[k[0]])) + "</code>");
    });
    if (d.examples && d.examples.length) out.push("e.g. <code>" + esc(JSON.stringify(d.examples[0])) + "</code>");
    else if (d.example !== undefined) out.push("e.g. <code>" + esc(JSON.stringify(d.example)) + "</code>");
    return out.length ? "<div class=muted>" + out.join("; ") + "</div>" : "";
  }
  // fields renders an object schema's properties as rows, nested objects
  // indented, to a bounded depth (schemas can refer to themselves).
  function fields(s, prefix, depth, rows) {
    var d = deref(s);
    if (d.type === "array" || (Array.isArray(d.type) && d.type.indexOf("array") >= 0)) d = deref(d.items);
    if (!d.properties || depth > 6) return rows;
    var req = d.required || [];
    Object.keys(d.properties).forEach(function (k) {
      var p = d.properties[k];
      var pd = deref(p);
      rows.push("<tr><td class=field>" + esc(prefix + k) + (req.indexOf(k) >= 0 ? "<span class=req>required</span>" : "") +
        "</td><td class=type>" + esc(typeOf(p)) + "</td><td>" + md(pd.description || p.description) + constraints(pd) + "</td></tr>");
      fields(p, prefix + k + (typeOf(p).indexOf("array") === 0 ? "[]." : "."), depth + 1, rows);
    });
    return rows;
  }
  function schemaTable(s) {
    var rows = fields(s, "", 0, []);
    if (!rows.length) return "<p><span class=type>" + esc(typeOf(s)) + "</span></p>" + constraints(deref(s));
    return "<table><tr><th>field</th><th>type</th><th>meaning</th></tr>" + rows.join("") + "</table>";
  }
  function opId(method, path) { return (method + path).replace(/[^A-Za-z0-9]+/g, "-"); }

  function render() {
    var info = spec.info || {};
    var html = "<h1>" + esc(info.title || "API") + " <span class=muted>" + esc(info.version || "") + "</span></h1>" + md(info.description);
    html += "<p>The spec itself: <a href=\"openapi.yaml\">openapi.yaml</a> (3.1), <a href=\"openapi-3.0.yaml\">openapi-3.0.yaml</a> (3.0).</p>";
    if (spec.servers) html += "<h2>Servers</h2><ul>" + spec.servers.map(function (s) {
      return "<li><code>" + esc(s.url) + "</code> " + esc(s.description || "") + "</li>"; }).join("") + "</ul>";
    var schemes = (spec.components || {}).securitySchemes;
    if (schemes) html += "<h2>Authentication</h2><ul>" + Object.keys(schemes).map(function (k) {
      return "<li><code>" + esc(k) + "</code> (" + esc(schemes[k].type) + (schemes[k].scheme ? " " + esc(schemes[k].scheme) : "") + ")" + md(schemes[k].description) + "</li>"; }).join("") + "</ul>";
    var byTag = {}, order = (spec.tags || []).map(function (t) { return t.name; });
    Object.keys(spec.paths || {}).forEach(function (path) {
      ["get", "post", "put", "patch", "delete"].forEach(function (m) {
        var op = spec.paths[path][m];
        if (!op) return;
        var tag = (op.tags && op.tags[0]) || "Other";
        if (order.indexOf(tag) < 0) order.push(tag);
        (byTag[tag] = byTag[tag] || []).push({ m: m, path: path, op: op });
      });
    });
    var navHtml = "<strong>" + esc(info.title || "API") + "</strong>";
    order.forEach(function (tag) {
      if (!byTag[tag]) return;
      navHtml += "<h2>" + esc(tag) + "</h2>";
      byTag[tag].forEach(function (e) {
        navHtml += "<a href=\"#" + opId(e.m, e.path) + "\"><span class=\"method " + e.m + "\">" + e.m.toUpperCase() + "</span>" + esc(e.op.summary || e.path) + "</a>";
      });
      var t = (spec.tags || []).filter(function (x) { return x.name === tag; })[0];
      html += "<h2 id=\"tag-" + esc(tag) + "\">" + esc(tag) + "</h2>" + md(t && t.description);
      byTag[tag].forEach(function (e) { html += operation(e.m, e.path, e.op); });
    });
    nav.innerHTML = navHtml;
    main.innerHTML = html;
    if (location.hash) { var el = document.getElementById(location.hash.slice(1)); if (el) el.scrollIntoView(); }
  }

  function operation(m, path, op) {
    var h = "<section class=op id=\"" + opId(m, path) + "\"><h3><span class=\"method " + m + "\">" + m.toUpperCase() + "</span><code>" + esc(path) + "</code></h3>";
    h += "<p><strong>" + esc(op.summary || "") + "</strong> <span class=muted>" + esc(op.operationId || "") + "</span></p>" + md(op.description);
    if (op.parameters && op.parameters.length) {
      h += "<h4>Parameters</h4><table><tr><th>name</th><th>in</th><th>type</th><th>meaning</th></tr>";
      op.parameters.forEach(function (p) {
        p = deref(p);
        h += "<tr><td class=field>" + esc(p.name) + (p.required ? "<span class=req>required</span>" : "") + "</td><td>" + esc(p.in) +
          "</td><td class=type>" + esc(typeOf(p.schema || {})) + "</td><td>" + md(p.description) + constraints(deref(p.schema || {})) + "</td></tr>";
      });
      h += "</table>";
    }
    if (op.requestBody) {
      var rb = deref(op.requestBody);
      Object.keys(rb.content || {}).forEach(function (ct) {
        var mt = rb.content[ct];
        h += "<h4>Request body <code>" + esc(ct) + "</code></h4>" + schemaTable(mt.schema || {});
        if (mt.example !== undefined) h += "<details><summary>Example request</summary><pre>" + esc(JSON.stringify(mt.example, null, 2)) + "</pre></details>";
      });
    }
    h += "<h4>Responses</h4><table><tr><th>status</th><th>meaning</th></tr>";
    Object.keys(op.responses || {}).sort().forEach(function (code) {
      var r = deref(op.responses[code]);
      var body = "";
      Object.keys(r.content || {}).forEach(function (ct) {
        body += "<details><summary><code>" + esc(ct) + "</code> " + esc(typeOf(r.content[ct].schema || {})) + "</summary>" + schemaTable(r.content[ct].schema || {}) + "</details>";
      });
      var hdrs = Object.keys(r.headers || {}).map(function (k) { return "<code>" + esc(k) + "</code>"; }).join(", ");
      h += "<tr><td class=status>" + esc(code) + "</td><td>" + md(r.description) + (hdrs ? "<div class=muted>headers: " + hdrs + "</div>" : "") + body + "</td></tr>";
    });
    return h + "</table></section>";
  }

  var req = new XMLHttpRequest();
  req.open("GET", "openapi.json");
  req.onload = function () {
    try {
      if (req.status !== 200) throw new Error("status " + req.status);
      spec = JSON.parse(req.responseText);
      render();
    } catch (e) {
      nav.innerHTML = "";
      main.innerHTML = "<p class=error>Could not load openapi.json: " + esc(e.message) + ". The spec is also at <a href=\"openapi.yaml\">openapi.yaml</a>.</p>";
    }
  };
  req.onerror = function () { main.innerHTML = "<p class=error>Could not load openapi.json.</p>"; };
  req.send();
})();
