package dev.onceproof.bench.exactlyonce;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * One PNG per figure: each curve's closed form (clamped at zero) as a line, the mean-value
 * simulation as open markers, the stochastic simulation as filled markers with 95% error bars.
 * The subtitle names the parameter values that are ours, not the paper's.
 */
final class EoPlots {

    private EoPlots() {
    }

    static List<Path> write(EoExperiment.Results res, Path dir) throws IOException {
        Files.createDirectories(dir);
        List<Path> out = new ArrayList<>();
        for (Figures.Figure f : res.figureList()) {
            XYChart chart = new XYChartBuilder().width(1300).height(650)
                    .title(f.title() + "   [our choices: " + f.ours() + "]")
                    .xAxisTitle(f.x()).yAxisTitle("p_i / p_0").build();
            chart.getStyler().setYAxisMin(0.0).setYAxisMax(1.05)
                    .setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.OutsideE);
            for (EoExperiment.CurveResult c : res.figures().get(f.id())) {
                List<Double> xs = c.points().stream().map(Point::x).toList();
                chart.addSeries(c.curve().label() + " (App. B)", xs,
                        c.points().stream().map(p -> p.analytic().value()).toList()).setMarker(SeriesMarkers.NONE);
                List<Point> mv = c.points().stream().filter(p -> p.simulated().meanValue() != null).toList();
                if (!mv.isEmpty()) {
                    XYSeries s = chart.addSeries(c.curve().label() + " mean-value sim", mv.stream().map(Point::x).toList(),
                            mv.stream().map(p -> p.simulated().meanValue()).toList());
                    s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter).setMarker(SeriesMarkers.CIRCLE);
                }
                List<Point> st = c.points().stream().map(p -> p.simulated().stochastic() == null ? null : p)
                        .filter(Objects::nonNull).toList();
                if (!st.isEmpty()) {
                    XYSeries s = chart.addSeries(c.curve().label() + " stochastic sim (95% CI)",
                            st.stream().map(Point::x).toList(),
                            st.stream().map(p -> p.simulated().stochastic().mean()).toList(),
                            st.stream().map(p -> (p.simulated().stochastic().hi() - p.simulated().stochastic().lo()) / 2)
                                    .toList());
                    s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter).setMarker(SeriesMarkers.DIAMOND);
                }
            }
            Path stem = dir.resolve(f.id());
            BitmapEncoder.saveBitmap(chart, stem.toString(), BitmapEncoder.BitmapFormat.PNG);
            out.add(Path.of(stem + ".png"));
        }
        return out;
    }
}
