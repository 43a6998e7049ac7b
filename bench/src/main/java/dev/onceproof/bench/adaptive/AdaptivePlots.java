package dev.onceproof.bench.adaptive;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** PNG plots: per scenario, the estimate and the connection-table size over time; the rounds. */
final class AdaptivePlots {

    private AdaptivePlots() {
    }

    static List<Path> write(AdaptiveExperiment.Results res, Path dir) throws IOException {
        Files.createDirectories(dir);
        List<Path> out = new ArrayList<>();
        for (Map.Entry<String, List<RunResult>> e : res.runs().entrySet()) {
            Scenario sc = res.scenarios().get(e.getKey());
            XYChart est = chart("Estimate over time: " + sc.name(), "server time (ticks)", "ltime-est");
            est.getStyler().setYAxisLogarithmic(true);
            XYChart table = chart("Connection-table size: " + sc.name(), "server time (ticks)", "entries");
            for (RunResult r : e.getValue()) {
                List<Series.Sample> s = r.series().samples();
                est.addSeries(r.contender(), s.stream().map(Series.Sample::t).toList(),
                        s.stream().map(x -> Math.max(1, x.estimate())).toList()).setMarker(SeriesMarkers.NONE);
                table.addSeries(r.contender(), s.stream().map(Series.Sample::t).toList(),
                        s.stream().map(Series.Sample::table).toList()).setMarker(SeriesMarkers.NONE);
            }
            if (sc.boundFrom() >= 0) {
                est.addSeries("2X", List.of(sc.boundFrom(), sc.ticks()), List.of(2 * sc.boundX(), 2 * sc.boundX()))
                        .setMarker(SeriesMarkers.NONE);
            }
            out.add(save(est, dir.resolve(sc.name() + "-estimate")));
            out.add(save(table, dir.resolve(sc.name() + "-table")));
        }
        out.add(save(rounds("History: ticks to come back below 2X after burst i", res.history()),
                dir.resolve("history")));
        out.add(save(rounds("Theorem 11 construction: t' - t_i in round i", res.theorem11()),
                dir.resolve("theorem11")));
        return out;
    }

    private static XYChart rounds(String title, List<Rounds.Result> results) {
        XYChart c = chart(title, "round i", "ticks");
        for (Rounds.Result r : results) {
            List<Integer> xs = new ArrayList<>();
            for (int i = 1; i <= r.convergence().size(); i++) {
                xs.add(i);
            }
            c.addSeries(r.contender(), xs, r.convergence());
        }
        return c;
    }

    private static XYChart chart(String title, String x, String y) {
        return new XYChartBuilder().width(900).height(500).title(title).xAxisTitle(x).yAxisTitle(y).build();
    }

    private static Path save(XYChart chart, Path stem) throws IOException {
        BitmapEncoder.saveBitmap(chart, stem.toString(), BitmapEncoder.BitmapFormat.PNG);
        return Path.of(stem + ".png");
    }
}
