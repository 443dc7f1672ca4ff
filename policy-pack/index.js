// The policy pack's entry (PulumiPolicy.yaml beside it): the rules are compiled into dist/fleet/pack.js.
require("../dist/fleet/pack.js");
