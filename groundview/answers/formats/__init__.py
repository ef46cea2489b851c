"""Other ways of writing an Answer, turned into the one groundview stores.

`protojson` reads every JSON form the proto3 JSON mapping allows (what Google's client library
writes) and returns the REST form; `rows` maps Ragas and DeepEval rows onto the Answer shape.
"""
