------------------------- MODULE MCExactlyOnceS0Msg -------------------------
(* Bounded models of ExactlyOnceS0Msg, and the refinement of its compacted  *)
(* level (Compact = TRUE) to its unbounded one (Compact = FALSE, the cores  *)
(* today): the mapping adds back what was forgotten, at the servers and in  *)
(* each sync message (its ghost field), and shows Forget as a stutter.      *)
EXTENDS ExactlyOnceS0Msg

\* A cfg cannot write a sequence, so the note ids are here.
MCNoteIds == <<"n1", "n2">>

Unbounded == INSTANCE ExactlyOnceS0Msg
    WITH Compact <- FALSE,
         removed <- [s \in Servers |-> removed[s] \cup gone[s]],
         gone <- [s \in Servers |-> {}],
         conf <- [s \in Servers |-> [t \in Servers |-> {}]],
         snet <- {SyncMsg(m.type, m.from, m.to, m.removed \cup m.gone, {}) : m \in snet},
         lastAction <- IF lastAction.name = "Forget" THEN lastAction.prev ELSE lastAction

RefinesUnboundedInit == Unbounded!Init
RefinesUnboundedNext == [][Unbounded!Next]_Unbounded!vars

\* Reachability (expected to fail): the rule fires in the model.
NeverForgets == \A s \in Servers : gone[s] = {}
=============================================================================
