"""Movielens: the MovieLens 1M ratings (ml-1m.zip) with their users' and movies' features."""
import re
import zipfile

import numpy as np

from ...io import Dataset
from ._common import check_mode, local_file

URL = "https://dataset.bj.bcebos.com/movielens%2Fml-1m.zip"
age_table = [1, 18, 25, 35, 45, 50, 56]
_TITLE = re.compile(r"^(.*)\((\d+)\)$")


class MovieInfo:
    """A movie: its id, categories and title (without the year)."""

    def __init__(self, index, categories, title):
        self.index = int(index)
        self.categories = categories
        self.title = title

    def value(self, categories_dict, movie_title_dict):
        """[[id], [category ids], [title word ids]]."""
        return [[self.index], [categories_dict[c] for c in self.categories],
                [movie_title_dict[w.lower()] for w in self.title.split()]]

    def __str__(self):
        return f"<MovieInfo id({self.index}), title({self.title}), categories({self.categories})>"

    __repr__ = __str__


class UserInfo:
    """A user: id, gender, age bracket (its index in age_table) and job id."""

    def __init__(self, index, gender, age, job_id):
        self.index = int(index)
        self.is_male = gender == "M"
        self.age = age_table.index(int(age))
        self.job_id = int(job_id)

    def value(self):
        """[[id], [0 male / 1 female], [age bracket], [job id]]."""
        return [[self.index], [0 if self.is_male else 1], [self.age], [self.job_id]]

    def __str__(self):
        return (f"<UserInfo id({self.index}), gender({'M' if self.is_male else 'F'}), age({age_table[self.age]}), "
                f"job({self.job_id})>")

    __repr__ = __str__


class Movielens(Dataset):
    """(user id, gender, age, job, movie id, category ids, title word ids, rating * 2 - 5) as int64/float arrays.
    Each rating is 'test' with probability test_ratio, drawn from NumPy's global generator seeded with rand_seed
    (as Paddle: the split is Paddle's for the same seed)."""

    def __init__(self, data_file=None, mode="train", test_ratio=0.1, rand_seed=0, download=True):
        self.mode = check_mode(mode, ("train", "test"))
        self.data_file = local_file(data_file, URL, "Movielens", "data_file", download)
        self.test_ratio = test_ratio
        self.rand_seed = rand_seed
        np.random.seed(rand_seed)
        self._load_meta_info()
        self._load_data()

    def _load_meta_info(self):
        self.movie_info, self.movie_title_dict, self.categories_dict, self.user_info = {}, {}, {}, {}
        with zipfile.ZipFile(self.data_file) as package:
            title_words, categories = set(), set()
            with package.open("ml-1m/movies.dat") as movies:
                for line in movies:
                    movie_id, title, kinds = line.decode(encoding="latin").strip().split("::")
                    kinds = kinds.split("|")
                    categories.update(kinds)
                    title = _TITLE.match(title).group(1)
                    self.movie_info[int(movie_id)] = MovieInfo(index=movie_id, categories=kinds, title=title)
                    title_words.update(w.lower() for w in title.split())
            # numbered in set order, as Paddle's (the same words give the same numbers within one process)
            self.movie_title_dict = {w: i for i, w in enumerate(title_words)}
            self.categories_dict = {c: i for i, c in enumerate(categories)}
            with package.open("ml-1m/users.dat") as users:
                for line in users:
                    uid, gender, age, job, _ = line.decode(encoding="latin").strip().split("::")
                    self.user_info[int(uid)] = UserInfo(index=uid, gender=gender, age=age, job_id=job)

    def _load_data(self):
        self.data = []
        is_test = self.mode == "test"
        with zipfile.ZipFile(self.data_file) as package, package.open("ml-1m/ratings.dat") as ratings:
            for line in ratings:
                line = line.decode(encoding="latin")
                if (np.random.random() < self.test_ratio) == is_test:
                    uid, mov_id, rating, _ = line.strip().split("::")
                    user, movie = self.user_info[int(uid)], self.movie_info[int(mov_id)]
                    self.data.append(user.value() + movie.value(self.categories_dict, self.movie_title_dict)
                                     + [[float(rating) * 2 - 5.0]])

    def __getitem__(self, idx):
        return tuple(np.array(d) for d in self.data[idx])

    def __len__(self):
        return len(self.data)
