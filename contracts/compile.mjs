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
const CONTRACTS = ["PorAggregateExec", "PorDecimalMath", "PorProofCheck", "PorVerdictRegistry"];

// SPEC §14.1: the settings are part of the build; changing one changes the bytecode.
const settings = {
  evmVersion: "cancun",
  optimizer: { enabled: true, runs: 10000 },
  metadata: { bytecodeHash: "ipfs" },
  outputSelection: {
    "*": { "*": ["abi", "evm.bytecode.object", "evm.deployedBytecode.object", "metadata"] },
  },
};

const sources = {};
for (const name of readdirSync(join(here, "src")).sort()) {
  if (name.endsWith(".sol")) {
    sources[`src/${name}`] = { content: readFileSync(join(here, "src", name), "utf8") };
  }
}

const output = JSON.parse(solc.compile(JSON.stringify({ language: "Solidity", sources, settings })));
const errors = (output.errors ?? []).filter((e) => e.severity === "error");
for (const e of output.errors ?? []) {
  process.stderr.write(e.formattedMessage + "\n");
}
if (errors.length > 0) {
  process.exit(1);
}

mkdirSync(out, { recursive: true });
for (const name of CONTRACTS) {
  const unit = output.contracts[`src/${name}.sol`][name];
  const artifact = {
    contractName: name,
    sourceName: `src/${name}.sol`,
    compiler: { name: "solc-js", version: solc.version() },
    settings: { evmVersion: settings.evmVersion, optimizer: settings.optimizer,
                metadata: settings.metadata },
    abi: unit.abi,
    bytecode: "0x" + unit.evm.bytecode.object,
    deployedBytecode: "0x" + unit.evm.deployedBytecode.object,
    metadata: unit.metadata,
  };
  writeFileSync(join(out, `${name}.json`), JSON.stringify(artifact, null, 2) + "\n");
}
