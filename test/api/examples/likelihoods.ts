import { Rng, likelihoodByName } from "gpmcmc";

const y = Float64Array.from([1, 2, 4, 3, 1]);           // ordinal categories 1..4
const f = Float64Array.from([-1, 0, 2.5, 1, -0.5]);     // latent values
const [d1, d2, d3, R, yNew] = [0, 0, 0, 0, 0].map(() => new Float64Array(y.length));
const rng = new Rng(1);

const lik = likelihoodByName("ordinal", { thresholds: [-1, 0.5, 2], noiseSd: 0.7 });
lik.checkResponses(y);                                   // LikelihoodDataError naming the first bad response
const logp = lik.derivatives(y, f, d1, d2, d3);          // fills d1, d2, d3; returns sum_i log p(y_i | f_i)
lik.fisherInformation(f, R);                             // R_ii
lik.sample(f, rng, yNew);                                // y_i ~ p(y | f_i)
console.log(`log p(y | f) = ${logp.toFixed(4)}; R = ${Array.from(R, (r) => r.toFixed(3)).join(", ")}`);
