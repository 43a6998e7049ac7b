package dev.onceproof.bench.rpc;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;

/**
 * Figures 3-2 and 3-3 as one bar chart: median microseconds per call for each system on each
 * experiment, so the paper's picture (SCMP-RPC level with UDP, TCP far above in 3-3) can be
 * compared at a glance. Per call rather than per run, so both experiments share an axis.
 */
public final class RpcBenchChart {

    private RpcBenchChart() {
    }

    public static void write(RpcBench.Results results, Path png) throws IOException {
        RpcBench.Config c = results.config();
        CategoryChart chart = new CategoryChartBuilder().width(900).height(500)
                .title("Null calls on loopback: median of " + c.rounds() + " rounds")
                .xAxisTitle("experiment").yAxisTitle("microseconds per call").build();
        chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.InsideNW);
        List<String> experiments = List.of("Fig. 3-2: 1 client, " + c.calls() + " sequential calls",
                "Fig. 3-3: " + c.clients() + " clients, 1 call each");
        for (Map.Entry<String, Map<String, List<Double>>> e : results.millis().entrySet()) {
            List<Double> perCall = new ArrayList<>();
            perCall.add(Summary.of(e.getValue().get(RpcBench.SEQUENTIAL)).median() * 1000.0 / c.calls());
            perCall.add(Summary.of(e.getValue().get(RpcBench.MANY_CLIENTS)).median() * 1000.0 / c.clients());
            chart.addSeries(e.getKey(), experiments, perCall);
        }
        String file = png.toString();
        BitmapEncoder.saveBitmap(chart, file.endsWith(".png") ? file.substring(0, file.length() - 4) : file,
                BitmapEncoder.BitmapFormat.PNG);
    }
}
