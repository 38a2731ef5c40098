// Recompile contracts/src for the gas profiler (bench/gas_profile.py), with source maps.
//
//   node bench/gasprof/solc_maps.mjs < job.json > maps.json
//
// job.json: {"contracts": "<contracts dir>", "evmVersion": ..., "metadata": {...},
//            "groups": {"<runs>": {"src/File.sol": ["Name", ...]}, ...}}
// The settings come from the committed artifacts (contracts/build/*.json record the
// runs each was built with); the Python side checks that the recompiled deployed
// bytecode equals the committed one. Output: per runs value, each selected contract's
// deployed bytecode, source map, generated (Yul) sources and immutable references,
// and every source's id and AST. Nothing is written beside the sources.
import { readFileSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

const job = JSON.parse(readFileSync(0, "utf8"));
const solc = createRequire(join(job.contracts, "package.json"))("solc");
const sources = {};
for (const dir of ["src", "src/forms"]) { // as contracts/compile.mjs
  for (const name of readdirSync(join(job.contracts, dir)).sort()) {
    if (name.endsWith(".sol")) {
      sources[`${dir}/${name}`] = { content: readFileSync(join(job.contracts, dir, name), "utf8") };
    }
  }
}
const wanted = ["evm.deployedBytecode.object", "evm.deployedBytecode.sourceMap",
                "evm.deployedBytecode.generatedSources",
                "evm.deployedBytecode.immutableReferences"];
const result = { version: solc.version(), groups: {} };
for (const [runs, files] of Object.entries(job.groups)) {
  const selection = { "*": { "": ["ast"] } };
  for (const [file, names] of Object.entries(files)) {
    selection[file] = { "": ["ast"] };
    for (const name of names) selection[file][name] = wanted;
  }
  const input = { language: "Solidity", sources,
                  settings: { evmVersion: job.evmVersion, metadata: job.metadata,
                              optimizer: { enabled: true, runs: Number(runs) },
                              outputSelection: selection } };
  const output = JSON.parse(solc.compile(JSON.stringify(input)));
  const errors = (output.errors ?? []).filter((e) => e.severity === "error");
  if (errors.length > 0) {
    process.stderr.write(errors.map((e) => e.formattedMessage).join("\n") + "\n");
    process.exit(1);
  }
  const contracts = {};
  for (const [file, names] of Object.entries(files)) {
    for (const name of names) {
      const evm = output.contracts[file][name].evm.deployedBytecode;
      contracts[name] = { file, object: evm.object, sourceMap: evm.sourceMap,
                          generatedSources: evm.generatedSources ?? [],
                          immutableReferences: evm.immutableReferences ?? {} };
    }
  }
  const asts = {};
  for (const [file, unit] of Object.entries(output.sources)) {
    asts[file] = { id: unit.id, ast: unit.ast };
  }
  result.groups[runs] = { contracts, sources: asts };
}
process.stdout.write(JSON.stringify(result));
