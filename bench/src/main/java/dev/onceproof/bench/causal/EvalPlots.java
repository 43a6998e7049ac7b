package dev.onceproof.bench.causal;

import dev.onceproof.causal.Mode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.HeatMapChart;
import org.knowm.xchart.HeatMapChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** PNG plots: false positives against w, delivery-latency CDFs, network cost against the event rate. */
final class EvalPlots {

    private EvalPlots() {
    }

    static List<Path> write(CausalEval.Results res, Path dir) throws IOException {
        Files.createDirectories(dir);
        List<Path> out = new ArrayList<>();
        out.add(save(falsePositives(res), dir.resolve("false-positives-vs-w")));
        String[] names = {"delivery-cdf-small", "delivery-cdf-worked-example", "delivery-cdf-mixture"};
        for (int i = 0; i < res.deliverability().size(); i++) {
            out.add(save(latencyCdf(res.deliverability().get(i)), dir.resolve(names[i])));
        }
        out.add(save(cost(res), dir.resolve("network-cost-vs-rate")));
        out.add(save(surface(res.config().lambda()), dir.resolve("fig2-false-positive-surface")));
        return out;
    }

    /**
     * Fig. 2 rebuilt (its image is lost, notes X13): Eq. 11 over (w, rho) as a heat map, w and rho in
     * [0, 5] (the axis ranges are lost too); the ridge is at rho = ln 2 / lambda.
     */
    private static HeatMapChart surface(double lambda) {
        HeatMapChart ch = new HeatMapChartBuilder().width(1000).height(600)
                .title("Fig. 2 rebuilt: Eq. 11, false positives f(w, rho), lambda = " + lambda
                        + " (ridge at rho = ln 2 / lambda)")
                .xAxisTitle("rho (gap between A's and B's issue)").yAxisTitle("w").build();
        int steps = 20;
        List<String> xs = new ArrayList<>();
        List<String> ys = new ArrayList<>();
        List<Number[]> cells = new ArrayList<>();
        for (int i = 0; i <= steps; i++) {
            xs.add(String.format(Locale.ROOT, "%.2f", 5.0 * i / steps));
            ys.add(String.format(Locale.ROOT, "%.2f", 5.0 * i / steps));
        }
        for (int i = 0; i <= steps; i++) {
            for (int j = 0; j <= steps; j++) {
                cells.add(new Number[] {i, j, Equations.falsePositiveSurface(lambda, 5.0 * j / steps, 5.0 * i / steps)});
            }
        }
        ch.getStyler().setMin(0).setMax(Equations.maxFalsePositive(lambda, 0));
        ch.addSeries("Eq. 11", xs, ys, cells);
        return ch;
    }

    private static XYChart falsePositives(CausalEval.Results res) {
        EvalConfig c = res.config();
        XYChart ch = chart("False positives against w (lambda = " + c.lambda() + ")", "w (mean latencies)",
                "false positives per dependency / per pair");
        ch.getStyler().setYAxisLogarithmic(true);
        List<Double> ws = new ArrayList<>();
        List<Double> bound = new ArrayList<>();
        for (double w = 0; w <= c.waits()[c.waits().length - 1] + 1e-9; w += 0.05) {
            ws.add(w);
            bound.add(Equations.maxFalsePositive(c.lambda(), w));
        }
        ch.addSeries("3/32 e^(-w) (Eq. 11 at rho = ln 2)", ws, bound).setMarker(SeriesMarkers.NONE);
        double conf = Interval.simultaneous(res.sweep().size() + res.offPeak().size());
        List<Double> x = new ArrayList<>();
        List<Double> y = new ArrayList<>();
        List<Double> lo = new ArrayList<>();
        List<Double> hi = new ArrayList<>();
        for (FalsePositives.Point p : res.sweep()) {
            Interval iv = Interval.binomial(p.blue(), p.trials(), conf);
            if (iv.lo() > 0) { // a log axis cannot show 0; such a point is in results.json
                x.add(p.w());
                y.add(iv.estimate());
                lo.add(iv.lo());
                hi.add(iv.hi());
            }
        }
        if (!x.isEmpty()) {
            ch.addSeries("simulated, Fig. 1 scenario (real core)", x, y).setLineStyle(
                    org.knowm.xchart.style.lines.SeriesLines.NONE);
            ch.addSeries("simulated interval, upper", x, hi).setMarker(SeriesMarkers.NONE)
                    .setLineStyle(org.knowm.xchart.style.lines.SeriesLines.DOT_DOT);
            ch.addSeries("simulated interval, lower", x, lo).setMarker(SeriesMarkers.NONE)
                    .setLineStyle(org.knowm.xchart.style.lines.SeriesLines.DOT_DOT);
        }
        for (double w : c.costWaits()) {
            List<Double> rx = new ArrayList<>();
            List<Double> ry = new ArrayList<>();
            for (FalsePositives.SystemPoint p : res.system()) {
                if (p.w() == w && p.blue().estimate() > 0) {
                    rx.add(w + 0.04 * rx.size());
                    ry.add(p.blue().estimate());
                }
            }
            if (!rx.isEmpty()) {
                ch.addSeries(String.format(Locale.ROOT, "whole group n=5, w=%.0f, r=%s (left to right)", w,
                        ratesLabel(c)), rx, ry).setLineStyle(org.knowm.xchart.style.lines.SeriesLines.NONE);
            }
        }
        return ch;
    }

    private static String ratesLabel(EvalConfig c) {
        List<String> s = new ArrayList<>();
        for (double r : c.rates()) {
            s.add(String.format(Locale.ROOT, "%.0f", r));
        }
        return String.join(",", s);
    }

    private static XYChart latencyCdf(Deliverability.Result r) {
        XYChart ch = chart("Issue to deliverable at another node [" + r.cfg().name() + "]", "t since issue",
                "P(deliverable by t)");
        for (Mode m : Deliverability.MODES) {
            double[] s = r.samples().get(m);
            List<Double> xs = new ArrayList<>();
            List<Double> ys = new ArrayList<>();
            int step = Math.max(1, s.length / 400);
            for (int i = 0; i < s.length; i += step) {
                xs.add(s[i]);
                ys.add((i + 1) / (double) s.length);
            }
            ch.addSeries("simulated " + m.specName(), xs, ys).setMarker(SeriesMarkers.NONE);
        }
        List<Double> t = new ArrayList<>();
        for (double v : r.t()) {
            t.add(v);
        }
        addCurve(ch, r.cfg().model() instanceof LatencyModel.Exponential ? "Eq. 1" : "Eq. 2", t, r.eq1());
        addCurve(ch, "Eq. 7 (FIFO)", t, r.eq7());
        if (!Double.isNaN(r.eq8()[0])) {
            addCurve(ch, "Eq. 8 (causal)", t, r.eq8());
        }
        ch.getStyler().setXAxisMax(r.tp());
        return ch;
    }

    private static void addCurve(XYChart ch, String name, List<Double> t, double[] y) {
        List<Double> ys = new ArrayList<>();
        for (double v : y) {
            ys.add(v);
        }
        XYSeries s = ch.addSeries(name, t, ys);
        s.setLineStyle(org.knowm.xchart.style.lines.SeriesLines.DASH_DASH);
    }

    private static XYChart cost(CausalEval.Results res) {
        EvalConfig c = res.config();
        XYChart ch = chart("Control messages per delivered pair against the event rate (n=5, lambda=1)",
                "global event rate r (events per mean latency)", "control messages per delivered pair");
        ch.getStyler().setXAxisLogarithmic(true);
        ch.getStyler().setYAxisLogarithmic(true);
        for (double loss : new double[] {c.losses()[1], c.losses()[c.losses().length - 1]}) {
            for (double w : c.costWaits()) {
                series(ch, String.format(Locale.ROOT, "RER w=%.0f, loss %.2f", w, loss), res, loss, w, 0);
            }
            series(ch, String.format(Locale.ROOT, "ack each, loss %.2f", loss), res, loss, c.costWaits()[0], 1);
            series(ch, String.format(Locale.ROOT, "cumulative ack, loss %.2f", loss), res, loss, c.costWaits()[0], 2);
        }
        return ch;
    }

    private static void series(XYChart ch, String name, CausalEval.Results res, double loss, double w, int which) {
        List<Double> x = new ArrayList<>();
        List<Double> y = new ArrayList<>();
        for (NetworkCost.Cell cell : res.cost()) {
            double v = which == 0 ? cell.rerControl() : which == 1 ? cell.eachControl() : cell.cumControl();
            if (cell.loss() == loss && cell.w() == w && v > 0) {
                x.add(cell.rate());
                y.add(v);
            }
        }
        if (!x.isEmpty()) {
            ch.addSeries(name, x, y);
        }
    }

    private static XYChart chart(String title, String x, String y) {
        return new XYChartBuilder().width(1000).height(600).title(title).xAxisTitle(x).yAxisTitle(y).build();
    }

    private static Path save(org.knowm.xchart.internal.chartpart.Chart<?, ?> chart, Path stem) throws IOException {
        BitmapEncoder.saveBitmap(chart, stem.toString(), BitmapEncoder.BitmapFormat.PNG);
        return Path.of(stem + ".png");
    }
}
