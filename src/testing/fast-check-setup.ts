// Property tests run on a fixed seed so CI is reproducible: a failure is a failure
// every time, with the seed to replay it. FC_SEED=<n> explores other seeds locally.
import fc from 'fast-check';

fc.configureGlobal({ seed: process.env.FC_SEED ? Number(process.env.FC_SEED) : 20261202 });
