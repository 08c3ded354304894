"""Data loading: Dataset, TensorDataset, DataLoader."""
