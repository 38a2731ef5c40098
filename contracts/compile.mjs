// Compile contracts/src with the pinned solc-js (package.json) and write the artifacts.
//
//   node compile.mjs [OUT_DIR]      (default: build/)
//
// The compiler ships inside the npm package: nothing is downloaded here. Output is
// deterministic: same sources, same compiler, same settings -> same bytes. The test
// tests/chain/test_contract_build.py recompiles into a temporary directory and
// requires byte-identical files.
import { readFileSync, readdirSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import solc from "solc";

const here = dirname(fileURLToPath(import.meta.url));
const out = process.argv[2] ?? join(here, "build");
// SPEC §14.8: the deployment list (deploy.json) names every deployed contract; each
// gets an artifact. Names listed here as well are built once.
const deployment = JSON.parse(readFileSync(join(here, "deploy.json"), "utf8"));
const CONTRACTS = [...new Set([
  ...deployment.families.filter((name) => name !== null),
  ...deployment.executors, deployment.checker, deployment.registry,
  "PorDecimalMath", "PorContradictionsMerge", "PorCheckCompute", "PorProofCheck", "PorVerdictRegistry",
])];

// SPEC §14.1: the settings are part of the build; changing one changes the bytecode.
const RUNS = 10000;
// SPEC §14.1: contracts built with fewer optimizer runs, because at RUNS their code would
// pass EIP-170 (24 576 bytes deployed) or EIP-3860 (49 152 bytes of initcode; an
// executor's initcode holds the contracts its constructor creates). Fewer runs: smaller
// code, a little more gas.
const FEWER_RUNS = { PorAggregateExec: 1000 };
const settings = {
  evmVersion: "cancun",
  optimizer: { enabled: true, runs: RUNS },
  metadata: { bytecodeHash: "ipfs" },
  outputSelection: {
    "*": { "*": ["abi", "evm.bytecode.object", "evm.deployedBytecode.object", "metadata"] },
  },
};

// src/ and src/forms/ (the executors on chain forms, ADR 0017); a contract's unit is
// where its file is.
const sources = {};
const unitOf = {};
for (const dir of ["src", "src/forms"]) {
  for (const name of readdirSync(join(here, dir)).sort()) {
    if (name.endsWith(".sol")) {
      sources[`${dir}/${name}`] = { content: readFileSync(join(here, dir, name), "utf8") };
      unitOf[name.slice(0, -4)] = `${dir}/${name}`;
    }
  }
}

// One compilation per runs value; each builds only the contracts it writes.
function compile(runs, names) {
  const selected = {};
  for (const name of names) selected[unitOf[name]] = { [name]: settings.outputSelection["*"]["*"] };
  const input = { language: "Solidity", sources,
                  settings: { ...settings, optimizer: { enabled: true, runs }, outputSelection: selected } };
  const output = JSON.parse(solc.compile(JSON.stringify(input)));
  const errors = (output.errors ?? []).filter((e) => e.severity === "error");
  for (const e of output.errors ?? []) {
    process.stderr.write(e.formattedMessage + "\n");
  }
  if (errors.length > 0) {
    process.exit(1);
  }
  return output;
}

const runsOf = (name) => FEWER_RUNS[name] ?? RUNS;
const outputs = new Map();
for (const runs of [...new Set(CONTRACTS.map(runsOf))]) {
  outputs.set(runs, compile(runs, CONTRACTS.filter((name) => runsOf(name) === runs)));
}

mkdirSync(out, { recursive: true });
for (const name of CONTRACTS) {
  const runs = runsOf(name);
  const unit = outputs.get(runs).contracts[unitOf[name]][name];
  const artifact = {
    contractName: name,
    sourceName: unitOf[name],
    compiler: { name: "solc-js", version: solc.version() },
    settings: { evmVersion: settings.evmVersion, optimizer: { enabled: true, runs },
                metadata: settings.metadata },
    abi: unit.abi,
    bytecode: "0x" + unit.evm.bytecode.object,
    deployedBytecode: "0x" + unit.evm.deployedBytecode.object,
    metadata: unit.metadata,
  };
  writeFileSync(join(out, `${name}.json`), JSON.stringify(artifact, null, 2) + "\n");
}
