/**
 * What a chain's transitions cost, counted in the operations the comparison paper's Table 1
 * counts: gradient, metric and inverse-metric evaluations, fixed-point iterations, leapfrog
 * steps and density evaluations. The driver tallies them per chain (samplers/chain/driver.ts) and a
 * run's summary reports them per chain (run/summary.ts).
 */
export interface OperationCounts {
  gradientCalls: number;
  metricCalls: number;
  inverseMetricCalls: number;
  fixedPointIterations: number;
  leapfrogSteps: number;
  /** Log density or log likelihood evaluations reported through StepInfo.densityEvaluations (elliptical slice sampling's cost). */
  densityEvaluations: number;
}

/** The operation counts of `from` (which may hold more). */
export function operationCounts(from: OperationCounts): OperationCounts {
  return {
    gradientCalls: from.gradientCalls,
    metricCalls: from.metricCalls,
    inverseMetricCalls: from.inverseMetricCalls,
    fixedPointIterations: from.fixedPointIterations,
    leapfrogSteps: from.leapfrogSteps,
    densityEvaluations: from.densityEvaluations,
  };
}
