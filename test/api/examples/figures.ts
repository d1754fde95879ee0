import { svgLineFigure } from "gpmcmc/figures";
import { writeFileAtomic } from "gpmcmc";

writeFileAtomic("figure2.svg", svgLineFigure({
  xLabel: "seconds", yLabel: "log Z", xLog: true,
  series: [{ name: "AIS, RMHMC", x: [1, 10, 100], y: [-105.6, -106.3, -106.45], error: [0.8, 0.46, 0.36] }],
  references: [{ y: -106.9, label: "EP" }, { y: -106.4, label: "corrected EP", band: 0.1 }],
}));
