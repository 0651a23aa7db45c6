"""Context management: what Claude sees, when it folds, and what the Timeline Index says.

Pure logic over ``storage``: no Qt, no network, no wall clock. The clock, the token
estimator, the summarizer and the model are injected.
"""
