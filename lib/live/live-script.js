// The dashboard page's own script (sent as is to the browser): one EventSource; the first update
// (and one after charts came or went) embeds every chart, later ones insert the new rows into
// each chart's Vega view with a changeset, or embed a chart again when its spec changed; the
// final report replaces the document. window.pgloadLive is read by tests.

export const LIVE_SCRIPT = `<script>
(function () {
  var status = window.pgloadLive = { updates: 0, full: 0, deltas: 0, version: -1, points: 0, charts: 0, errors: [], phase: 'starting', final: false }
  var opts = { mode: 'vega-lite', renderer: 'svg', actions: { export: true, source: false, compiled: false, editor: false } }
  var vega = vegaEmbed.vega || window.vega
  var charts = []
  var queue = Promise.resolve()
  var source = new EventSource('events')
  // rows per dataset of each chart's view: what a test compares between two pages
  status.rows = function () {
    return charts.map(function (c) {
      var out = { name: c.name }
      for (var k in c.datasets) { try { out[k] = c.result ? c.result.view.data(k).length : -1 } catch (e) { out[k] = -2 } }
      return out
    })
  }
  source.addEventListener('update', function (ev) {
    var u = JSON.parse(ev.data)
    queue = queue.then(function () { return u.full ? renderAll(u) : applyDelta(u) }).catch(failed)
  })
  source.addEventListener('report', function (ev) {
    source.close()
    queue.then(function () {
      status.final = true
      document.open()
      document.write(ev.data)
      document.close()
    })
  })
  function failed (err) { status.errors.push(String(err && err.message || err)) }
  function header (u) {
    document.getElementById('pgload-header').innerHTML = u.header
    document.getElementById('pgload-skipped').innerHTML = u.skipped
  }
  function done (u) {
    status.updates++
    status.version = u.version
    status.points = u.points
    status.charts = charts.length
    status.phase = u.phase
  }
  async function embed (i) {
    var c = charts[i]
    var el = document.getElementById('chart-' + i)
    if (c.result) { c.result.finalize(); c.result = null }
    var spec = Object.assign({}, c.spec, { datasets: JSON.parse(JSON.stringify(c.datasets)) })
    try {
      c.result = await vegaEmbed(el, spec, opts)
      // classList, not className: vega-embed's own classes size and place its actions menu
      el.classList.remove('chart-error')
    } catch (err) {
      failed(err)
      el.classList.add('chart-error')
      el.textContent = 'This chart could not be drawn: ' + (err && err.message || err)
    }
  }
  async function renderAll (u) {
    header(u)
    for (var k = 0; k < charts.length; k++) if (charts[k].result) charts[k].result.finalize()
    var box = document.getElementById('pgload-charts')
    box.style.minHeight = box.offsetHeight + 'px'
    box.innerHTML = u.charts.map(function (c, i) { return '<div class="chart" id="chart-' + i + '" role="img"></div>' }).join('')
    charts = u.charts.map(function (c, i) {
      document.getElementById('chart-' + i).setAttribute('aria-label', c.title)
      return { name: c.name, spec: c.spec, datasets: c.datasets, result: null }
    })
    for (var i = 0; i < charts.length; i++) await embed(i)
    box.style.minHeight = ''
    status.full++
    done(u)
  }
  async function applyDelta (u) {
    header(u)
    for (var j = 0; j < u.charts.length; j++) {
      var c = u.charts[j]
      var ch = charts[c.i]
      for (var name in c.data) {
        var d = c.data[name]
        ch.datasets[name] = d.insert ? (ch.datasets[name] || []).concat(d.insert) : d.replace
      }
      if (c.spec) ch.spec = c.spec
      if (c.spec || !ch.result) { await embed(c.i); continue }
      try {
        var view = ch.result.view
        for (var n in c.data) {
          var cs = vega.changeset()
          if (c.data[n].insert) cs.insert(JSON.parse(JSON.stringify(c.data[n].insert)))
          else cs.remove(vega.truthy).insert(JSON.parse(JSON.stringify(c.data[n].replace)))
          view.change(n, cs)
        }
        await view.runAsync()
      } catch (err) {
        // a dataset the view does not have (a layer left out while it was empty): embed again
        await embed(c.i)
      }
    }
    status.deltas++
    done(u)
  }
})()
</script>`
