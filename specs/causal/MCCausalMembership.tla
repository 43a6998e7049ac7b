-------------------------- MODULE MCCausalMembership --------------------------
(* Bounded models of CausalMembership: the node and event menu of MCCausal. *)
EXTENDS CausalMembership, MCCausal

\* Who may be suspected: "n1" (the node whose events the survivors must agree
\* on) or "n3" (a node that broadcasts nothing, whose row holds collection).
CONSTANT SuspectWho
MCSuspectable == {SuspectWho}
=============================================================================
