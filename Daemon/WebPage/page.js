// The daemon's own page: the downloads over aria2's JSON-RPC on the daemon's WebSocket, with
// the secret of the address's fragment kept for this tab only. Nothing a server or a download
// names is ever markup here: every name, URL and error goes in as text.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const secretKey = "fetcher.secret";
  const viewKey = "fetcher.view";
  const samplesKey = "fetcher.samples";
  // Rows of the table by GID: the row, its cells and the last status shown.
  const rows = new Map();
  // The receiving speed, a sample a second, for the graph: the last five minutes.
  const samples = [];
  const graphSeconds = 300;
  // The most waiting and stopped downloads listed (as AriaNg lists them), the first of each.
  const listed = 1000;
  const keys = [
    "gid", "status", "totalLength", "completedLength", "downloadSpeed", "errorCode",
    "errorMessage", "files",
  ];

  // The secret: from the address's fragment (then taken out of the address and its history),
  // else the one this tab was given before.
  const fragment = new URLSearchParams(location.hash.slice(1));
  if (fragment.has("secret")) {
    sessionStorage.setItem(secretKey, fragment.get("secret"));
    history.replaceState(null, "", location.pathname + location.search);
  }
  let secret = sessionStorage.getItem(secretKey);

  let socket = null;
  let nextId = 1;
  const answers = new Map();
  let retryDelay = 1000;
  let ticking = null;
  let pendingStatuses = new Set();
  let flushing = null;

  function say(text) {
    $("connection").textContent = text;
  }

  function complain(text) {
    $("message").textContent = text;
  }

  /// A JSON-RPC call over the WebSocket; resolves with its result, rejects with its message.
  function call(method, ...params) {
    return new Promise((resolve, reject) => {
      if (!socket || socket.readyState !== WebSocket.OPEN) {
        reject(new Error("not connected"));
        return;
      }
      const id = String(nextId++);
      answers.set(id, { resolve, reject });
      const token = secret ? ["token:" + secret] : [];
      socket.send(JSON.stringify({ jsonrpc: "2.0", id, method, params: token.concat(params) }));
    });
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + location.host + "/jsonrpc");
    socket.addEventListener("open", () => {
      retryDelay = 1000;
      say("Connected");
      refreshAll().catch(signInOrComplain);
    });
    socket.addEventListener("message", (event) => heard(event.data));
    socket.addEventListener("close", () => {
      for (const { reject } of answers.values()) reject(new Error("the connection closed"));
      answers.clear();
      stopTicking();
      say("Not connected to the daemon; trying again…");
      setTimeout(connect, retryDelay);
      retryDelay = Math.min(retryDelay * 2, 30000);
    });
  }

  function heard(text) {
    let message;
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    if (message.id !== undefined && answers.has(message.id)) {
      const { resolve, reject } = answers.get(message.id);
      answers.delete(message.id);
      if (message.error) reject(new Error(message.error.message));
      else resolve(message.result);
      return;
    }
    // A notification: the download it names has changed.
    if (typeof message.method === "string" && message.method.startsWith("aria2.on")) {
      for (const event of message.params || []) {
        if (event && typeof event.gid === "string") pendingStatuses.add(event.gid);
      }
      if (!flushing) flushing = setTimeout(flushStatuses, 150);
    }
  }

  /// Asks again for the downloads that notifications named, a batch at a time.
  async function flushStatuses() {
    flushing = null;
    const gids = [...pendingStatuses];
    pendingStatuses = new Set();
    await Promise.all(
      gids.map((gid) =>
        call("aria2.tellStatus", gid, keys).then(show, () => forget(gid))));
    arrange();
    startOrStopTicking();
    call("aria2.getGlobalStat").then(showTotals, () => {});
  }

  function signInOrComplain(error) {
    if (/unauthori[sz]ed/i.test(error.message)) {
      sessionStorage.removeItem(secretKey);
      secret = null;
      $("app").hidden = true;
      $("sign-in").hidden = false;
      $("secret").focus();
      say("The daemon needs its secret");
      return;
    }
    complain(error.message);
  }

  async function refreshAll() {
    const [active, waiting, stopped, options, stat] = await Promise.all([
      call("aria2.tellActive", keys),
      call("aria2.tellWaiting", 0, listed, keys),
      call("aria2.tellStopped", 0, listed, keys),
      call("aria2.getGlobalOption"),
      call("aria2.getGlobalStat"),
    ]);
    $("total-speed").textContent = rate(Number(stat.downloadSpeed) || 0);
    $("sign-in").hidden = true;
    $("app").hidden = false;
    const seen = new Set();
    for (const status of [...active, ...waiting, ...stopped]) {
      show(status);
      seen.add(status.gid);
    }
    for (const gid of [...rows.keys()]) if (!seen.has(gid)) forget(gid);
    const form = $("limits-form");
    const overall = options["max-overall-download-limit"];
    form.elements.overall.value = overall && overall !== "0" ? shortBytes(Number(overall)) : "";
    form.elements.concurrent.value = options["max-concurrent-downloads"] || "";
    arrange();
    showTotals(stat);
    startOrStopTicking();
  }

  /// The totals as the daemon counts them (more than the rows, past `listed`).
  function showTotals(stat) {
    const [active, waiting, stopped] = [stat.numActive, stat.numWaiting, stat.numStopped].map(
      (value) => Number(value) || 0);
    $("total-active").textContent = String(active);
    $("total-waiting").textContent = String(waiting);
    $("total-stopped").textContent = String(stopped);
    const more = [];
    if (waiting > listed) more.push(`the first ${listed} of ${waiting} waiting`);
    if (stopped > listed) more.push(`the first ${listed} of ${stopped} stopped`);
    $("more").textContent = more.length > 0 ? "Listed: " + more.join(", ") + "." : "";
  }

  // While something downloads and the page is seen, its progress is asked for each second
  // (tellActive alone); otherwise nothing is asked (the notifications say when that changes).
  function startOrStopTicking() {
    const busy = [...rows.values()].some((entry) => entry.status.status === "active");
    if (busy && !document.hidden) {
      if (!ticking) ticking = setInterval(tick, 1000);
    } else {
      stopTicking();
    }
  }

  function stopTicking() {
    if (ticking) clearInterval(ticking);
    ticking = null;
    sample(0);
  }

  async function tick() {
    try {
      // The total speed is the active downloads' (getGlobalStat's would cost a second call).
      const active = await call("aria2.tellActive", keys);
      for (const status of active) show(status);
      $("total-active").textContent = String(active.length);
      sample(active.reduce((sum, status) => sum + (Number(status.downloadSpeed) || 0), 0));
      arrange();
      if (active.length === 0) stopTicking();
    } catch (error) {
      complain(error.message);
    }
  }

  function sample(speed) {
    samples.push(speed);
    while (samples.length > graphSeconds) samples.shift();
    sessionStorage.setItem(samplesKey, JSON.stringify(samples));
    $("total-speed").textContent = rate(speed);
    drawGraph();
  }

  function drawGraph() {
    const canvas = $("graph");
    const scale = window.devicePixelRatio || 1;
    const width = canvas.clientWidth || 320;
    const height = canvas.clientHeight || 64;
    if (canvas.width !== width * scale) {
      canvas.width = width * scale;
      canvas.height = height * scale;
    }
    const context = canvas.getContext("2d");
    context.setTransform(scale, 0, 0, scale, 0, 0);
    context.clearRect(0, 0, width, height);
    const style = getComputedStyle(document.documentElement);
    context.strokeStyle = style.getPropertyValue("--line");
    context.strokeRect(0.5, 0.5, width - 1, height - 1);
    const top = Math.max(1, ...samples);
    context.strokeStyle = style.getPropertyValue("--accent");
    context.lineWidth = 1.5;
    context.beginPath();
    samples.forEach((speed, index) => {
      const x = width - (samples.length - 1 - index) * (width / graphSeconds);
      const y = height - 2 - (speed / top) * (height - 6);
      if (index === 0) context.moveTo(x, y);
      else context.lineTo(x, y);
    });
    context.stroke();
    context.fillStyle = style.getPropertyValue("--muted");
    context.font = "11px system-ui, sans-serif";
    context.fillText(top > 1 ? "peak " + rate(top) : "5 min", 6, 14);
  }

  /// A download's status in its row, made when it is new.
  function show(status) {
    let entry = rows.get(status.gid);
    if (!entry) {
      entry = makeRow(status.gid);
      rows.set(status.gid, entry);
    }
    entry.status = status;
    const { cells } = entry;
    const total = Number(status.totalLength) || 0;
    const done = Number(status.completedLength) || 0;
    const speed = Number(status.downloadSpeed) || 0;
    const file = (status.files && status.files[0]) || {};
    const uri = file.uris && file.uris[0] ? file.uris[0].uri : "";
    cells.name.textContent = baseName(file.path) || baseName(uri) || status.gid;
    cells.progress.setAttribute("aria-label", "Progress of " + cells.name.textContent);
    cells.url.textContent = uri;
    cells.size.textContent = total > 0 ? bytes(total) : "?";
    cells.progress.max = total > 0 ? total : 1;
    cells.progress.value = total > 0 ? done : 0;
    cells.percent.textContent = total > 0 ? Math.floor((done / total) * 100) + "%" : bytes(done);
    const active = status.status === "active";
    cells.speed.textContent = active ? rate(speed) : "";
    cells.left.textContent = active && speed > 0 && total > 0 ? duration((total - done) / speed) : "";
    cells.state.textContent =
      status.status === "error"
        ? "failed: " + (status.errorMessage || "error " + status.errorCode)
        : stateNames[status.status] || status.status;
    entry.row.className = "state-" + status.status;
    const stopped = ["complete", "error", "removed"].includes(status.status);
    cells.pause.hidden = !(active || status.status === "waiting");
    cells.resume.hidden = status.status !== "paused";
    cells.limit.hidden = stopped;
    cells.remove.textContent = stopped ? "Clear" : "Remove";
  }

  const stateNames = {
    active: "downloading", waiting: "waiting", paused: "paused", complete: "done",
    removed: "removed",
  };

  function makeRow(gid) {
    const row = document.createElement("tr");
    const cell = (label, className) => {
      const td = document.createElement("td");
      td.dataset.label = label;
      if (className) td.className = className;
      row.append(td);
      return td;
    };
    const name = cell("Name", "name");
    const title = document.createElement("span");
    const url = document.createElement("small");
    name.append(title, url);
    const size = cell("Size", "number");
    const progressCell = cell("Progress");
    const progress = document.createElement("progress");
    const percent = document.createElement("span");
    progressCell.append(progress, " ", percent);
    const speed = cell("Speed", "number");
    const left = cell("Time left", "number");
    const state = cell("State", "state");
    const limitCell = cell("Limit", "limit");
    const limit = document.createElement("input");
    limit.placeholder = "limit";
    // Its limit, asked for when it is about to change.
    limit.addEventListener("focus", () =>
      call("aria2.getOption", gid).then((options) => {
        const value = Number(options["max-download-limit"]) || 0;
        if (document.activeElement === limit && limit.value === "") {
          limit.value = value > 0 ? shortBytes(value) : "";
        }
      }, () => {}));
    limit.setAttribute("aria-label", "Speed limit of this download (500K, 2M; empty for none)");
    limit.addEventListener("change", () =>
      act(call("aria2.changeOption", gid, { "max-download-limit": limit.value.trim() || "0" }), gid));
    limitCell.append(limit);
    const actions = cell("", "actions");
    const button = (text, handler) => {
      const element = document.createElement("button");
      element.type = "button";
      element.textContent = text;
      element.addEventListener("click", handler);
      actions.append(element);
      return element;
    };
    const pause = button("Pause", () => act(call("aria2.pause", gid), gid));
    const resume = button("Resume", () => act(call("aria2.unpause", gid), gid));
    const remove = button("Remove", () => removeDownload(gid));
    $("downloads").tBodies[0].append(row);
    return {
      row, status: {}, place: rows.size,
      cells: { name: title, url, size, progress, percent, speed, left, state, limit, pause, resume, remove },
    };
  }

  async function removeDownload(gid) {
    const entry = rows.get(gid);
    if (!entry) return;
    const stopped = ["complete", "error", "removed"].includes(entry.status.status);
    try {
      await call(stopped ? "aria2.removeDownloadResult" : "aria2.remove", gid);
      if (stopped || entry.status.status !== "active") forget(gid);
      arrange();
      call("aria2.getGlobalStat").then(showTotals, () => {});
    } catch (error) {
      complain(error.message);
    }
  }

  function forget(gid) {
    const entry = rows.get(gid);
    if (entry) entry.row.remove();
    rows.delete(gid);
  }

  /// The rows in order: downloading, waiting, paused, then the stopped; each as they came.
  function arrange() {
    const order = { active: 0, waiting: 1, paused: 2 };
    const entries = [...rows.values()].sort(
      (a, b) => (order[a.status.status] ?? 3) - (order[b.status.status] ?? 3) || a.place - b.place);
    const body = $("downloads").tBodies[0];
    entries.forEach((entry, index) => {
      if (body.children[index] !== entry.row) body.insertBefore(entry.row, body.children[index] || null);
    });
    $("empty").hidden = entries.length > 0;
  }

  /// Runs a call of an action and says its error; then asks again for the download it named
  /// (a notification does not follow every change: a resumed download waits in silence).
  async function act(promise, gid) {
    try {
      complain("");
      await promise;
      if (gid) {
        pendingStatuses.add(gid);
        if (!flushing) flushing = setTimeout(flushStatuses, 0);
      }
    } catch (error) {
      complain(error.message);
    }
  }

  function baseName(text) {
    if (!text) return "";
    const path = text.split(/[?#]/)[0];
    const parts = path.split("/").filter((part) => part.length > 0);
    const last = parts.length > 0 ? parts[parts.length - 1] : "";
    try {
      return decodeURIComponent(last);
    } catch {
      return last;
    }
  }

  function bytes(count) {
    const units = ["B", "KiB", "MiB", "GiB", "TiB"];
    let value = count;
    let unit = 0;
    while (value >= 1024 && unit < units.length - 1) {
      value /= 1024;
      unit += 1;
    }
    return (unit === 0 ? String(value) : value.toFixed(value < 10 ? 1 : 0)) + " " + units[unit];
  }

  /// A byte count as the options take it: 2M, 500K, or bytes.
  function shortBytes(count) {
    if (count % 1048576 === 0) return count / 1048576 + "M";
    if (count % 1024 === 0) return count / 1024 + "K";
    return String(count);
  }

  function rate(count) {
    return bytes(count) + "/s";
  }

  function duration(seconds) {
    const whole = Math.ceil(seconds);
    if (whole < 60) return whole + " s";
    if (whole < 3600) return Math.floor(whole / 60) + " min " + (whole % 60) + " s";
    return Math.floor(whole / 3600) + " h " + Math.floor((whole % 3600) / 60) + " min";
  }

  // The view kept for the tab: whether the add form is open, and the graph's samples.
  function keepView() {
    sessionStorage.setItem(viewKey, JSON.stringify({ adding: $("add-panel").open }));
  }

  function restoreView() {
    try {
      const view = JSON.parse(sessionStorage.getItem(viewKey) || "{}");
      $("add-panel").open = view.adding === true;
      const kept = JSON.parse(sessionStorage.getItem(samplesKey) || "[]");
      if (Array.isArray(kept)) samples.push(...kept.map(Number).slice(-graphSeconds));
    } catch {
      sessionStorage.removeItem(viewKey);
      sessionStorage.removeItem(samplesKey);
    }
  }

  $("sign-in").addEventListener("submit", (event) => {
    event.preventDefault();
    secret = $("secret").value.trim();
    sessionStorage.setItem(secretKey, secret);
    $("secret").value = "";
    refreshAll().catch((error) => {
      $("sign-in-error").textContent = error.message;
      signInOrComplain(error);
    });
  });

  $("add-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const form = event.target.elements;
    const uris = [form.url.value.trim()].concat(
      form.mirrors.value.split("\n").map((line) => line.trim()).filter((line) => line));
    const options = {};
    for (const [field, option] of [
      ["checksum", "checksum"], ["dir", "dir"], ["out", "out"], ["limit", "max-download-limit"],
    ]) {
      const value = form[field].value.trim();
      if (value) options[option] = value;
    }
    act(call("aria2.addUri", uris, options).then(() => event.target.reset()));
  });

  $("limits-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const form = event.target.elements;
    act(call("aria2.changeGlobalOption", {
      "max-overall-download-limit": form.overall.value.trim() || "0",
      "max-concurrent-downloads": form.concurrent.value.trim(),
    }));
  });

  $("pause-all").addEventListener("click", () =>
    act(call("aria2.pauseAll").then(() => refreshAll())));
  $("resume-all").addEventListener("click", () =>
    act(call("aria2.unpauseAll").then(() => refreshAll())));
  $("clear").addEventListener("click", () =>
    act(call("aria2.purgeDownloadResult").then(() => refreshAll())));
  $("add-panel").addEventListener("toggle", keepView);
  document.addEventListener("visibilitychange", startOrStopTicking);

  restoreView();
  drawGraph();
  connect();
})();
