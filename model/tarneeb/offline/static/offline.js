// The offline site's script (written into every page by `tarneeb site`). On every page it registers the service
// worker (sw.js), which caches the whole site on the first visit. On the referee and record pages it starts
// Pyodide, unpacks the engine (engine.zip) and answers the forms in the page: each answer is the page the web
// referee would send, rendered by its own templates in Python (tarneeb.offline.pages.respond). A ruling's page
// address holds the situation (#s= and the base64url of its TOML), so the address is the ruling's link: opening
// it shows the ruling. On the score sheet it answers the page's script (score.js) through window.tarneebScore: the
// same Python (tarneeb.offline.pages.respond, tarneeb.serve.score.answer) as the server's /LANG/score/api.
(function () {
  "use strict";
  var me = document.currentScript;
  var root = new URL((me && me.getAttribute("data-root")) || "./", location.href);
  var WORDS = {
    en: { loading: "Loading the referee… (the first visit downloads it once; afterwards it works offline)",
          ruling: "Ruling…", share: "Share this ruling", copied: "Link copied", link: "Link to this ruling",
          failed: "The referee could not start in this browser: ",
          badlink: "This link is damaged or cut short: it holds no situation the referee can read. Ask for the link " +
                   "again, or describe the situation in the form below.",
          offline: "Saved on this device: the referee works offline." },
    ar: { loading: "جارٍ تحميل الحَكَم… (تُنزَّل ملفاته مرة واحدة في الزيارة الأولى، ثم يعمل دون اتصال)",
          ruling: "جارٍ الحكم…", share: "شارك هذا الحكم", copied: "نُسخ الرابط", link: "رابط هذا الحكم",
          failed: "تعذّر تشغيل الحَكَم في هذا المتصفح: ",
          badlink: "هذا الرابط تالف أو مقطوع: لا يحمل موقفًا يستطيع الحَكَم قراءته. اطلب الرابط من جديد، أو صف " +
                   "الموقف في النموذج أدناه.",
          offline: "محفوظ على هذا الجهاز: يعمل الحَكَم دون اتصال." }
  };
  var T = window.tarneeb = { times: {}, answered: 0, last: null, error: null };  // times: ms from the page's opening

  // Whether the service worker answers this page (every file cached): Pyodide is started after it, so that its
  // files come from the cache, downloaded once. A worker that cannot install (a file missing on the host) or a
  // browser without service workers: false, and the page works online all the same.
  function controlled() {
    if (!("serviceWorker" in navigator)) { return Promise.resolve(false); }
    return navigator.serviceWorker.register(new URL("sw.js", root).href).then(function (reg) {
      if (navigator.serviceWorker.controller) { return true; }
      return new Promise(function (done) {
        navigator.serviceWorker.addEventListener("controllerchange", function () { done(true); });
        var w = reg.installing || reg.waiting;
        if (w) {
          w.addEventListener("statechange", function () { if (w.state === "redundant") { done(false); } });
        } else {
          setTimeout(function () { done(!!navigator.serviceWorker.controller); }, 3000);
        }
      });
    }).catch(function () { return false; });
  }
  var cached = controlled().then(function (yes) { T.times.cached = performance.now(); return yes; });

  // the page of the site an address names: {lang, page, path} for the referee and record pages, else null
  function route(url) {
    if (url.origin !== root.origin || url.pathname.indexOf(root.pathname) !== 0) { return null; }
    var m = /^(en|ar)\/(ruling|records|score)\/(index\.html)?$/.exec(url.pathname.slice(root.pathname.length));
    return m ? { lang: m[1], page: m[2], path: m[1] + "/" + m[2] + "/" } : null;
  }
  var here = route(new URL(location.href));
  if (!here) { return; }

  function words() { return WORDS[document.documentElement.lang] || WORDS.en; }
  function status(text, kind) {
    var main = document.querySelector("main");
    if (!main) { return; }
    var el = document.getElementById("offline-status");
    if (!el) {
      el = document.createElement("p");
      el.id = "offline-status";
      el.setAttribute("role", "status");
      main.insertBefore(el, main.firstChild);
    }
    el.className = "offline-status" + (kind ? " " + kind : "");
    el.textContent = text;
  }

  function b64urlEncode(text) {
    var bytes = new TextEncoder().encode(text), bin = "";
    for (var i = 0; i < bytes.length; i += 0x8000) { bin += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000)); }
    return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }
  function b64urlDecode(value) {
    var bin = atob(value.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((value.length + 3) % 4));
    var bytes = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) { bytes[i] = bin.charCodeAt(i); }
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  }
  function bytesB64(buffer) {
    var bytes = new Uint8Array(buffer), bin = "";
    for (var i = 0; i < bytes.length; i += 0x8000) { bin += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000)); }
    return btoa(bin);
  }

  // what an address asks: the situation of its #s=, the dispute of its ?example=, or the empty form
  // (a #s= that is not base64url of UTF-8 text, or is empty, throws: the link is damaged or cut short)
  function asked(url) {
    var s = new URLSearchParams(url.hash.replace(/^#/, "")).get("s");
    if (s !== null) {
      if (!/^[A-Za-z0-9_-]+$/.test(s) || s.length % 4 === 1) { throw new Error("not a situation's link"); }
      return { situation: b64urlDecode(s) };
    }
    var ex = url.searchParams.get("example");
    return ex ? { example: ex } : {};
  }

  var engine = cached.then(function () {
    return import(new URL("pyodide/pyodide.mjs", root).href);
  }).then(function (mod) {
    return mod.loadPyodide({ indexURL: new URL("pyodide/", root).href });
  }).then(function (py) {
    T.times.pyodide = performance.now();
    return fetch(new URL("engine.zip", root).href).then(function (r) {
      if (!r.ok) { throw new Error("engine.zip: " + r.status); }
      return r.arrayBuffer();
    }).then(function (zip) {
      py.unpackArchive(zip, "zip", { extractDir: "/engine" });
      py.runPython("import sys\nsys.path.insert(0, '/engine')");
      var respond = py.pyimport("tarneeb.offline.pages").respond;
      T.times.engine = performance.now();
      return respond;
    });
  });

  if (here.page === "score") {  // the sheet's script asks; the page itself stays
    window.tarneebScore = function (body) {
      return engine.then(function (respond) {
        return respond(JSON.stringify({ page: "score", lang: here.lang, request: body }));
      });
    };
    status(words().loading);
    engine.then(function () {
      T.times.ready = performance.now();
      cached.then(function (yes) { status(yes ? words().offline : "", yes ? "ok" : ""); });
    }, function (e) { T.error = String(e && e.message || e); status(words().failed + T.error, "bad"); });
    return;
  }

  function frame() { return new Promise(function (done) { requestAnimationFrame(function () { setTimeout(done, 0); }); }); }

  function show(html) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    document.documentElement.lang = doc.documentElement.lang;
    document.documentElement.dir = doc.documentElement.dir;
    document.title = doc.title;
    document.body.replaceWith(document.adoptNode(doc.body));
    document.body.querySelectorAll("script[src]").forEach(function (old) {  // the page's own scripts, run again
      var s = document.createElement("script");
      s.src = old.src;
      s.async = false;
      old.replaceWith(s);
    });
  }

  function shareBox(link) {
    var result = document.getElementById("result");
    if (!result) { return; }
    var w = words(), box = document.createElement("p");
    box.className = "share";
    var button = document.createElement("button");
    button.type = "button";
    button.id = "share";
    button.textContent = w.share;
    var input = document.createElement("input");
    input.id = "share-link";
    input.readOnly = true;
    input.dir = "ltr";
    input.value = link;
    input.setAttribute("aria-label", w.link);
    button.addEventListener("click", function () {
      if (navigator.share) { navigator.share({ title: document.title, url: link }).catch(function () {}); return; }
      input.select();
      (navigator.clipboard ? navigator.clipboard.writeText(link) : Promise.reject(new Error("no clipboard")))
        .then(function () { button.textContent = w.copied; }, function () { document.execCommand("copy"); });
    });
    box.appendChild(button);
    box.appendChild(input);
    var after = document.getElementById("headline") || result.querySelector("h2");  // under the answer
    result.insertBefore(box, after ? after.nextSibling : result.firstChild);
  }

  // answer a request in the page: the page of the answer replaces this one, its address is the ruling's link
  function go(r, req, how) {
    status(T.answered || T.times.engine ? words().ruling : words().loading);
    return engine.then(function (respond) {
      return frame().then(function () {
        req.page = r.page;
        req.lang = r.lang;
        var out = JSON.parse(respond(JSON.stringify(req)));
        var url = new URL(r.path, root);
        if (out.share) { url.hash = "s=" + b64urlEncode(out.share); } else if (req.example) { url.search = "?example=" + encodeURIComponent(req.example); }
        if (how === "push") { history.pushState(null, "", url.href); } else { history.replaceState(null, "", url.href); }
        show(out.html);
        T.last = { report: out.report || null, summary: out.summary || null, status: out.status, lang: r.lang, link: url.href };
        if (out.report) { shareBox(url.href); }
        T.answered += 1;
        if (!T.times.firstAnswer) { T.times.firstAnswer = performance.now(); }
        document.body.setAttribute("data-answered", String(T.answered));
        var focus = document.getElementById("error") || document.getElementById("result");
        if (focus) { focus.scrollIntoView({ block: "start" }); }
      });
    }).catch(function (e) {
      T.error = String(e && e.message || e);
      status(words().failed + T.error, "bad");
    });
  }

  function fields(form, submitter) {
    var data = new FormData(form, submitter || undefined), out = {}, reads = [];
    data.forEach(function (v, k) {
      if (typeof v === "string") { (out[k] = out[k] || []).push(v); return; }
      if (!v.name) { return; }
      reads.push(v.arrayBuffer().then(function (b) { (out[k] = out[k] || []).push({ name: v.name, data: bytesB64(b) }); }));
    });
    return Promise.all(reads).then(function () { return out; });
  }

  document.addEventListener("submit", function (ev) {
    var form = ev.target, r = route(new URL(form.getAttribute("action") || "", location.href));
    if (!r || r.page === "score") { return; }
    ev.preventDefault();
    fields(form, ev.submitter).then(function (f) { go(r, { form: f }, "push"); });
  });

  document.addEventListener("click", function (ev) {
    var a = ev.target && ev.target.closest ? ev.target.closest("a[href]") : null;
    if (!a || ev.defaultPrevented || ev.button || ev.metaKey || ev.ctrlKey || ev.shiftKey || ev.altKey) { return; }
    var url = new URL(a.getAttribute("href"), location.href), r = route(url);
    if (!r || r.page === "score") { return; }  // the score sheet is a page of its own: opened, not answered here
    ev.preventDefault();
    var req;
    try {
      req = a.classList.contains("lang") ? asked(new URL(location.href)) : asked(url);  // the same ruling, in the other language
    } catch (e) { req = {}; }
    go(r, req, "push");
  });

  function fromAddress(how) {
    var r = route(new URL(location.href));
    if (!r) { return; }
    var req;
    try { req = asked(new URL(location.href)); } catch (e) { status(words().badlink, "bad"); return; }
    go(r, req, how);
  }
  // back, forward, or a new #s= in the address bar: a new #s= fires popstate, then hashchange (answered once)
  var popped = null;
  window.addEventListener("popstate", function () { popped = location.href; fromAddress("replace"); });
  window.addEventListener("hashchange", function () {
    if (popped !== location.href) { fromAddress("replace"); }
    popped = null;
  });

  var first = {}, broken = false;
  try { first = asked(new URL(location.href)); } catch (e) { broken = true; }
  status(broken ? words().badlink : words().loading, broken ? "bad" : "");  // a broken link says so, and stays said
  if (broken) { document.body.setAttribute("data-badlink", "1"); }
  if (first.situation || first.example) {
    go(here, first, "replace");
  } else {
    engine.then(function () {
      T.times.ready = performance.now();
      if (broken) { return; }
      cached.then(function (yes) { status(yes ? words().offline : "", yes ? "ok" : ""); });
    }, function (e) { T.error = String(e && e.message || e); status(words().failed + T.error, "bad"); });
  }
})();
